#pragma once
#include <cstdint>
#include <unordered_map>
#include <string>

#include <nlohmann/json.hpp>

#include "models/matrix_unit/WfoldMapping.h"

namespace npusim {

// Per-layer figures of one matrix unit, accumulated over every conv instruction
// of the same shape (a tiled layer issues many), for the report's
// "matrix_unit_layers" rows: cycles, useful and padding MACs, utilizations,
// bus traffic and the mapping's reuse factors. Keyed by shape, so memory is
// bounded by the number of distinct layers, not by the trace length.
class LayerStats {
 public:
  // `bank_conflicts`: of the unit's NRAM bookings for the instruction, those that queued on a bank.
  void add(const WfoldPlan& plan, Cycles cycles, std::uint64_t bank_conflicts = 0);
  // One JSON row per layer shape, in first-seen order.
  nlohmann::json rows(std::uint32_t core, const MatrixUnitConfig& cfg) const;

 private:
  struct Layer {
    const WfoldPlan* plan = nullptr;  // owned by the MatrixUnit's plan cache
    std::uint64_t order = 0;
    std::uint64_t instructions = 0;
    Cycles cycles = 0;
    std::uint64_t bank_conflicts = 0;
  };
  // By plan: the matrix unit keeps one plan per shape and result path.
  std::unordered_map<const WfoldPlan*, Layer> layers_;
};

}  // namespace npusim
