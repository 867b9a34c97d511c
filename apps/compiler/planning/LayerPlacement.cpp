#include "apps/compiler/planning/LayerPlacement.h"

#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/compiler/emit/Lowering.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

// The first lowering by rank that takes `l` and whose engines some core kind has (placed
// on those cores), or none; `wanted` collects the engine sets of those that took it.
const Lowering* dense_placement(const Layer& l, LayerTiling& t, const HardwareConfig& hw,
                                std::vector<std::string>& wanted) {
  for (const Lowering* lowering : lowerings()) {
    const std::vector<std::string> engines = lowering->takes(l);
    if (engines.empty()) continue;
    if (place_on(lowering->name(), engines, t, hw)) return lowering;
    wanted.push_back(fmt::format("{}", fmt::join(engines, ", ")));
  }
  return nullptr;
}

// The lowering that computes `l` by the verdict rule, with the layer placed on its cores.
const Lowering& place_layer(const Workload& w, const Layer& l, LayerTiling& t, const HardwareConfig& hw) {
  if (l.kind == LayerKind::Depthwise && !l.engine.empty())
    throw InputError(w.file, layer_place(l) + ", field 'engine'",
                     "grouped (depthwise) convolutions run on the vector unit; leave out 'engine'");
  for (const Lowering* lowering : lowerings())
    if (lowering->probe(w, l, t, hw)) return *lowering;
  std::vector<std::string> wanted;
  if (const Lowering* dense = dense_placement(l, t, hw, wanted)) return *dense;
  throw InputError(w.file, layer_place(l),
                   fmt::format("needs a core with engines {}, and no core of this chip has them all",
                               fmt::join(wanted, " (or) ")));
}

// One candidate of a placement by cost: a lowering, its placed tiling and its prediction.
struct Candidate {
  const Lowering* lowering = nullptr;
  LayerTiling placed;
  std::optional<double> cycles;
};

// `placed` planned on a copy, and its cycles predicted.
Candidate costed(const Workload& w, const Layer& l, const HardwareConfig& hw, const Lowering& lowering,
                 LayerTiling placed) {
  LayerTiling planned = placed;
  lowering.plan(w, l, hw, planned);
  const std::optional<double> cycles = lowering.layer_cycles(w, l, planned, hw);
  return {&lowering, std::move(placed), cycles};
}

// The layer on the first lowering that asks for cost placement and claims it when the layer
// names it; none when none does or its kernel does not fit.
std::optional<Candidate> claimed_by_cost(const Workload& w, const Layer& l, const HardwareConfig& hw,
                                         const LayerTiling& start) {
  for (const Lowering* lowering : lowerings()) {
    if (!lowering->places_by_cost(hw)) continue;
    Layer asking = l;
    asking.engine = lowering->name();
    LayerTiling t = start;
    try {
      if (lowering->probe(w, asking, t, hw)) return costed(w, l, hw, *lowering, std::move(t));
    } catch (const InputError&) {
      return std::nullopt;  // it cannot run the layer: nothing to compare
    }
  }
  return std::nullopt;
}

CostPlacement figures(const Candidate& a, const Candidate& b, const Lowering& verdict, const Lowering& chosen) {
  CostPlacement p;
  p.cycles = {{a.lowering->name(), *a.cycles}, {b.lowering->name(), *b.cycles}};
  p.verdict = verdict.name();
  p.chosen = chosen.name();
  p.reason = fmt::format("auto-cost: {} predicts {:.0f} cycles, {} {:.0f}: {} (the verdict rule picks {})",
                         a.lowering->name(), *a.cycles, b.lowering->name(), *b.cycles, chosen.name(), verdict.name());
  return p;
}

bool cost_placement_applies(const Layer& l, const HardwareConfig& hw) {
  if (!l.engine.empty() || (l.kind != LayerKind::Conv && l.kind != LayerKind::Fc)) return false;
  for (const Lowering* lowering : lowerings())
    if (lowering->places_by_cost(hw)) return true;
  return false;
}

// Placement by cost (see the header); `verdict_tiling` is the verdict rule's placement, whose
// probe notes every candidate keeps. None when there is nothing to compare.
std::optional<std::pair<const Lowering*, LayerTiling>> placed_by_cost(const Workload& w, const Layer& l,
                                                                      const HardwareConfig& hw,
                                                                      const LayerTiling& verdict_tiling,
                                                                      const Lowering& verdict, bool model_share) {
  const LayerTiling start = start_tiling(l);
  LayerTiling dense_tiling = start;
  dense_tiling.engine_plans = verdict_tiling.engine_plans;  // the probes' notes (the sparse verdict)
  std::vector<std::string> wanted;
  const Lowering* dense = dense_placement(l, dense_tiling, hw, wanted);
  if (!dense) return std::nullopt;
  if (model_share) return std::make_pair(dense, std::move(dense_tiling));
  std::optional<Candidate> claimed = claimed_by_cost(w, l, hw, start);
  if (!claimed || claimed->lowering == dense) return std::nullopt;
  Candidate other = costed(w, l, hw, *dense, dense_tiling);
  if (!claimed->cycles || !other.cycles) return std::nullopt;
  const bool tie = *claimed->cycles == *other.cycles;
  Candidate& won = tie ? (&verdict == dense ? other : *claimed) : (*claimed->cycles < *other.cycles ? *claimed : other);
  CostPlacement note = figures(*claimed, other, verdict, *won.lowering);
  // The probes' notes as the verdict rule left them (the verdict, not "the layer asks for it");
  // the winner's plan() fills in the rest of its entry.
  LayerTiling t = std::move(won.placed);
  for (const auto& [name, plan] : verdict_tiling.engine_plans) t.engine_plans[name] = plan;
  t.engine_plans[kCostPlacementNote] = std::move(note);
  return std::make_pair(won.lowering, std::move(t));
}

}  // namespace

LayerTiling tile_layer(const Workload& w, const Layer& l, const HardwareConfig& hw, const ChannelShares* shares) {
  LayerTiling t = start_tiling(l);
  const Lowering* lowering = &place_layer(w, l, t, hw);
  const bool model_share = shares && shares->mode != ParallelMode::Data;
  if (cost_placement_applies(l, hw))
    if (auto by_cost = placed_by_cost(w, l, hw, t, *lowering, model_share)) {
      lowering = by_cost->first;
      t = std::move(by_cost->second);
    }
  if (model_share) apply_shares(l, t, *shares);
  lowering->plan(w, l, hw, t);
  return t;
}

nlohmann::json cost_placement_json(const CostPlacement& p) {
  nlohmann::json cycles = nlohmann::json::object();
  for (const auto& [name, c] : p.cycles) cycles[name] = c;
  return {{"rule", "auto-cost"}, {"predicted_cycles", cycles}, {"verdict", p.verdict}, {"chosen", p.chosen},
          {"reason", p.reason}};
}

}  // namespace npusim
