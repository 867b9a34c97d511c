#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "apps/compiler/tiling/LayerTiler.h"

namespace npusim {

// How one layer is placed and tiled, through the lowering registry (emit/Lowering.h):
// a lowering whose probe() claims it (the sparse cluster), else the first by rank that
// takes() it and whose engines some core kind has; that lowering then plans it. With
// `shares`, the layer is tiled for one core's share of a model mode. Throws InputError
// naming the layer when no core kind can run it or it does not fit.
//
// Placement by cost (auto-cost, asked for by a lowering's places_by_cost(), i.e.
// /core/sparse/placement): a conv or fc layer that names no engine is planned both on the
// lowering whose probe() judges it (as if the layer asked for it) and on the first dense one
// that takes it; each predicts its cycles from its own mapping (Lowering::layer_cycles), and
// the fewer wins (a tie keeps the verdict's choice). With auto-cost-energy (a lowering's
// places_by_energy()) each instead predicts its engine counters and DRAM bytes from that
// mapping (Lowering::layer_counts), priced by the run's energy table (PredictedEnergy.h), and
// the lower dynamic energy wins, by the same tie rule. The tiling keeps every figure as a
// CostPlacement note. A model mode's share goes to the dense lowering without comparing:
// only it splits channels.
// `input_chained`: the caller knows the layer's input would arrive as its producer's engine
// stores it (Lowering::chains_to); kept as LayerTiling::input_chained for the predictions.
// `order`: the load order its lowering tiles it for (none: weight-stationary, LoadOrder.h).
struct LoadOrderPlan;
LayerTiling tile_layer(const Workload& w, const Layer& l, const HardwareConfig& hw,
                       const ChannelShares* shares = nullptr, bool input_chained = false,
                       const LoadOrderPlan* order = nullptr);

// The figures behind a placement by cost, kept in LayerTiling::engine_plans under
// kCostPlacementNote and shown in the layer's report row ("placement").
struct CostPlacement {
  std::string objective = "cycles";                    // or "energy"
  std::vector<std::pair<std::string, double>> cycles;  // predicted, per lowering compared
  std::vector<std::pair<std::string, double>> energy_pj;  // predicted dynamic energy; empty: no table
  std::string verdict;                                 // the lowering the verdict rule picks
  std::string chosen;
  std::string reason;  // one line
};
inline constexpr const char* kCostPlacementNote = "placement";
nlohmann::json cost_placement_json(const CostPlacement& p);

// The rule both objectives share: whether the first of two candidates wins on its predicted
// figure (cycles or pJ), fewer winning; on a tie the verdict's choice stays.
bool cost_choice(double first, double second, bool first_is_verdict);

}  // namespace npusim
