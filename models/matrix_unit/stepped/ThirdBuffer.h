#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/matrix_unit/MatrixUnitConfig.h"
#include "models/matrix_unit/stepped/SteppedWorkOrder.h"

namespace npusim::stepped {

// The third buffers of all slaves, as D result sets taken by tiles in order (rule 6):
// tile t uses set t mod D, taken at its first compute cycle and given back when its
// write-back ends. With contents, each set holds per slave Nco x Ncu*Ws accumulators of
// 4 bytes, written wo first, then co slot (¶147, ¶180).
class ThirdBuffer {
 public:
  static constexpr std::uint32_t kAccumulatorBytes = 4;  // int32 or fp32

  ThirdBuffer(const MatrixUnitConfig& cfg, const WfoldPlan& plan, bool with_contents);

  std::uint32_t sets() const { return static_cast<std::uint32_t>(free_from_.size()); }
  bool can_take(std::uint64_t tile, Cycles t) const { return free_from_[tile % sets()] <= t; }
  void take(std::uint64_t tile);  // held until given back; contents cleared
  void give_back(std::uint64_t tile, Cycles free_from) { free_from_[tile % sets()] = free_from; }
  // Accumulators of one slave in the tile's set: [co slot][wo in tile].
  std::uint8_t* results(std::uint64_t tile, std::uint32_t slave);

 private:
  std::size_t slave_bytes_;
  std::uint32_t slaves_;
  std::vector<Cycles> free_from_;
  std::vector<std::uint8_t> contents_;
};

}  // namespace npusim::stepped
