#pragma once
#include <cstdint>
#include <vector>

#include "models/min_network/BenesNetwork.h"
#include "models/sparse_compute_unit/MultiplierArray.h"

namespace npusim {

// The variable accumulator register VAR 1340 with its read MIN 1355, accumulator 1325
// and write MIN 1335 (seed001 §1.10, Fig. 18b). A window of (2kh-1) x (2kw-1) partial
// sums is loaded from the accumulator buffer 1350 at a cell's origin; every round the
// read MIN brings the sums at the products' indices to the accumulator lanes, the
// lanes add, and the write MIN puts the new sums back. Both MINs are Benes networks:
// the values really travel through their switch settings (functional runs only).
class VariableAccumulator {
 public:
  // `ports` must be a power of two covering both the VAR locations and the multipliers.
  VariableAccumulator(std::uint32_t ports, std::uint32_t var_h, std::uint32_t var_w);

  // VAR = AccBuf(row : row + var_h - 1, col : col + var_w - 1), clipped to the buffer.
  void load(const std::vector<std::int64_t>& buffer, std::uint32_t buffer_w, std::uint32_t buffer_h,
            std::uint32_t row, std::uint32_t col);
  void accumulate(const RoundView& round);
  // Writes the window back where it was loaded from.
  void write_back(std::vector<std::int64_t>& buffer, std::uint32_t buffer_w, std::uint32_t buffer_h) const;

  const BenesStats& read_min() const { return read_stats_; }
  const BenesStats& write_min() const { return write_stats_; }

 private:
  const BenesRouting& one_pass(const std::vector<BenesRouting>& passes) const;

  BenesNetwork min_;
  std::uint32_t var_h_, var_w_;
  std::uint32_t row_ = 0, col_ = 0;
  std::vector<std::int64_t> var_;  // one value per port; locations past var_h * var_w stay 0
  std::vector<std::int64_t> request_, lanes_;
  BenesStats read_stats_, write_stats_;
};

}  // namespace npusim
