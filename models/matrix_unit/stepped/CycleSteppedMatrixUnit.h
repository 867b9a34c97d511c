#pragma once
#include <cstdint>
#include <vector>

#include "models/matrix_unit/MatrixUnitConfig.h"
#include "models/matrix_unit/WfoldMapping.h"
#include "sim/common/Cycles.h"

namespace npusim {

// The cycle-stepped reference of the Wfold matrix unit (docs/fidelity.md, seed000): one
// conv instruction on an idle unit, advanced one cycle at a time. It shares only the
// mapping quantities of the WfoldPlan with the fast model, none of its timing.

// One tile's times, in cycles from the instruction's start (cycle 0). fill_start is the cycle
// the broadcast bus began its first window; first_compute and last_compute are the cycles
// those compute cycles issued in; results_ready is the first
// cycle the write-back may use them; write_start is the cycle of its first request;
// write_end the first cycle after its latency (the port and the result set are free again).
struct SteppedTileTimes {
  Cycles fill_start = 0, first_compute = 0, last_compute = 0, results_ready = 0, write_start = 0, write_end = 0;
};

struct SteppedConvRun {
  std::vector<SteppedTileTimes> tiles;  // in work order (n, co round, ho, wo tile)
  Cycles total = 0;                     // rule 10: the last write_end
  Cycles compute_cycles = 0;            // cycles in which a compute cycle issued
  // Cycles the CU arrays waited, by the first unmet condition in the order result set,
  // window, weight row (cycles before the first and after the last compute are included
  // until the last compute; cycles after it are not stalls).
  Cycles stall_window = 0, stall_weights = 0, stall_result_set = 0;
  std::uint32_t window_slots = 0;  // first-buffer slots (rule 2)
  std::uint32_t result_sets = 0;   // D (rule 6)
  std::uint64_t read_requests = 0; // NRAM requests of the master's read port (rule 1a)
};

struct SteppedConvData {        // all null -> timing only
  const void* ifmap = nullptr;  // [n hi wi ci], int8 or float32 per layer.element_bytes
  const void* weights = nullptr;  // [co kh kw ci]
  void* out = nullptr;            // [n ho wo co]: int32 / float32, or int8 when requantize
};

// The readout path's int32 -> int8 step: (v + 2^(shift-1)) >> shift, ReLU, saturate.
struct ResultRequant {
  bool enabled = false;
  std::uint32_t shift = 0;
  bool relu = false;
  std::vector<std::int32_t> bias;  // per output channel of the instruction; empty = none
};

// Runs `plan` (from plan_wfold_conv(cfg, layer)) cycle by cycle. Throws InputError for a
// write-back rate that is not positive, std::invalid_argument for data it cannot compute
// (some tensors null, 2-byte elements, requantize on float32).
SteppedConvRun run_cycle_stepped_conv(const MatrixUnitConfig& cfg, const WfoldPlan& plan,
                                      const ResultRequant& requant, const SteppedConvData& data = {});

}  // namespace npusim
