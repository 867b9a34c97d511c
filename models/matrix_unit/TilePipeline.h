#pragma once
#include <cstdint>
#include <vector>

#include "sim/common/Cycles.h"

namespace npusim {

struct WfoldPlan;
struct MatrixUnitConfig;

// One tile's times in cycles from the instruction's start: when the broadcast bus starts its
// first window, the CU arrays' first and end-of-last compute cycle, and its write-back.
struct TileTimes {
  Cycles fill_start = 0;
  Cycles first_compute = 0;
  Cycles compute_end = 0;  // the cycle after the last compute cycle
  Cycles write_start = 0;
  Cycles write_end = 0;
};

// Cycles the CU arrays sat idle between the instruction's start and its last compute cycle,
// by what they waited for, plus the drain after it (docs/fidelity.md, rules 5-8).
struct PipelineStalls {
  Cycles window = 0;      // a first-buffer window still on the broadcast bus
  Cycles weights = 0;     // weight rows still on the distribution links
  Cycles result_set = 0;  // every third-buffer set still held by a tile waiting for write-back
  Cycles drain = 0;       // after the last compute cycle: MAC pipeline and the last write-backs
};

// The fast model of docs/fidelity.md: one recurrence step per first-buffer window and per tile,
// with the weight links as a rate bound inside a segment (rules 3-4 in steady state) instead of
// row by row. The cycle-stepped reference (models/matrix_unit/stepped) measures what that costs.
struct TilePipeline {
  std::vector<TileTimes> tiles;  // in work order: n, co round, ho, wo tile
  PipelineStalls stalls;
  std::uint32_t window_slots = 1;  // first-buffer windows in flight (rule 2)
  std::uint32_t result_sets = 1;   // third-buffer depth in effect (rule 6)
  Cycles total = 0;
};

// Result sets the third buffer holds for this plan: the configured depth, capped by its bytes.
std::uint32_t third_buffer_sets(const WfoldPlan& plan, const MatrixUnitConfig& cfg);

// Recurrence steps schedule_tiles takes for this plan: one per first-buffer window, plus one per
// weight row when the links are followed row by row. Its time and memory grow with this number.
// A double: for a huge layer it would not fit 64 bits.
double pipeline_steps(const WfoldPlan& plan, const MatrixUnitConfig& cfg);

// Runs the recurrence over every tile of the plan.
TilePipeline schedule_tiles(const WfoldPlan& plan, const MatrixUnitConfig& cfg);

}  // namespace npusim
