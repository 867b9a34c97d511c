#pragma once
#include <cstdint>
#include <vector>

#include "models/matrix_unit/ConvShape.h"
#include "models/sparse_compute_unit/MultiplierArray.h"
#include "models/sparse_compute_unit/SparseOperands.h"
#include "models/sparse_compute_unit/VariableAccumulator.h"

namespace npusim {

// What a compute unit is built with (the /core/sparse keys that shape it).
struct ComputeUnitShape {
  SparseUnitKind kind = SparseUnitKind::Unit1300;
  std::uint32_t multipliers = 8;    // p
  std::uint32_t max_weights = 2;    // unique weights per round, units 1400/1500 (0 = no cap)
  std::uint32_t min_ports = 32;     // Benes ports of the read and write MINs
  bool adder_merge = true;          // unit 1500: colliding neighbours summed, not deferred
};

// One unit's share of a sparse convolution: its output rectangle, the non-zeros of the
// input window it reads, and the kernel's non-zeros.
struct SubmapWork {
  const ConvShape* shape = nullptr;
  UnitRegion region;
  const CellGrid* cells = nullptr;
  const KernelNonzeros* kernel = nullptr;
  // Functional runs: the unit's int64 sums, [oy1-oy0][ox1-ox0][co]; nullptr for timing only.
  std::vector<std::int64_t>* sums = nullptr;
};

struct SubmapStats {
  MultiplierStats multipliers;
  ArbiterStats arbiter;
  BenesStats read_min, write_min;  // functional runs only: the VAR traffic really routed
  std::uint64_t windows = 0;        // VAR loads and write-backs (one per cell and output channel with work)
  std::uint64_t nonzeros = 0;       // input non-zeros in the unit's window
  std::uint64_t multiplier_slots(std::uint32_t p) const { return multipliers.rounds * p; }
};

// Cycle costs of a unit; all assumptions (models/sparse_cluster/README.md).
struct ComputeUnitTiming {
  std::uint64_t round_cycles = 1;
  std::uint64_t window_cycles = 2;
  // The unit's busy time for a sub-map: its rounds and its VAR windows.
  std::uint64_t busy(const SubmapStats& s) const {
    return s.multipliers.rounds * round_cycles + s.windows * window_cycles;
  }
};

// Process 1600 on one unit (seed001 §2.7): per output channel the accumulator buffer
// starts at zero; per kh x kw cell of the sub-map the VAR window is loaded, every
// (non-zero data, non-zero weight) pair of every input channel is issued through the
// multipliers, the arbiter and the VAR, and the window is written back. 1x1 kernels
// take the adder and special-accumulator path (§2.13). Only pairs whose product lands
// on an output of the unit's rectangle are issued (stride and border products are
// dropped by the index computation).
// Timing runs take the counted path (CountedRounds.h) when it applies; functional runs, and
// kernels too large for it, issue every pair (convolve_submap_exact). Both give equal stats.
SubmapStats convolve_submap(const ComputeUnitShape& unit, const SubmapWork& work);
SubmapStats convolve_submap_exact(const ComputeUnitShape& unit, const SubmapWork& work);

// For one cell: which data rows and columns, with which kernel row and column, give a
// product on an output of the unit's rectangle (stride and borders), and the cell's origin.
struct CellValidity {
  CellValidity(const SubmapWork& work, std::uint32_t cy, std::uint32_t cx);
  std::int32_t cell_row = 0, cell_col = 0;
  std::vector<std::uint8_t> rows, cols;  // [kernel row * kh + data row in cell], likewise columns

 private:
  static void compute(std::int32_t cell, std::uint32_t k, std::uint32_t pad, std::uint32_t stride, std::uint32_t o0,
                      std::uint32_t o1, std::vector<std::uint8_t>& ok);
};

// The pairs of one window, in issue order (the second form is exposed for the worked-example tests).
void window_pairs(const SubmapWork& work, const CellValidity& cell, std::uint32_t cy, std::uint32_t cx,
                  std::uint32_t co, std::vector<OperandPair>& pairs);
void window_pairs(const SubmapWork& work, std::uint32_t cy, std::uint32_t cx, std::uint32_t co,
                  std::vector<OperandPair>& pairs);

}  // namespace npusim
