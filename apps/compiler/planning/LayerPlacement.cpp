#include "apps/compiler/planning/LayerPlacement.h"

#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/compiler/emit/Lowering.h"
#include "apps/compiler/planning/PredictedEnergy.h"
#include "apps/compiler/tiling/LoadOrder.h"
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

// One candidate of a placement by cost: a lowering, its placed tiling and its predictions.
struct Candidate {
  const Lowering* lowering = nullptr;
  LayerTiling placed;
  std::optional<double> cycles;
  std::optional<double> energy_pj;  // dynamic, from the same mapping (PredictedEnergy.h)
};

// `placed` planned on a copy, and its cycles and energy predicted.
Candidate costed(const Workload& w, const Layer& l, const HardwareConfig& hw, const Lowering& lowering,
                 LayerTiling placed) {
  LayerTiling planned = placed;
  lowering.plan(w, l, hw, planned);
  const std::optional<double> cycles = lowering.layer_cycles(w, l, planned, hw);
  std::optional<double> energy;
  if (const auto counts = lowering.layer_counts(w, l, planned, hw))
    energy = predicted_energy_pj(lowering, *counts, planned.kind(hw), hw);
  return {&lowering, std::move(placed), cycles, energy};
}

// What a candidate is weighed by: its predicted cycles, or its predicted energy.
std::optional<double> weight(const Candidate& c, bool by_energy) { return by_energy ? c.energy_pj : c.cycles; }

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

// The reason line: the objective's figures first, then the other's where both are known.
std::string cost_reason(const Candidate& a, const Candidate& b, bool by_energy, const std::string& chosen,
                        const std::string& verdict) {
  const std::string &na = a.lowering->name(), &nb = b.lowering->name();
  const std::string cycles = fmt::format("{} {:.0f} cycles, {} {:.0f}", na, *a.cycles, nb, *b.cycles);
  if (by_energy)
    return fmt::format("auto-cost-energy: lowest predicted energy: {} {:.1f} nJ, {} {:.1f} nJ ({}): {} (the verdict "
                       "rule picks {})",
                       na, *a.energy_pj / 1e3, nb, *b.energy_pj / 1e3, cycles, chosen, verdict);
  return fmt::format("auto-cost: {} predicts {:.0f} cycles, {} {:.0f}: {} (the verdict rule picks {})", na, *a.cycles,
                     nb, *b.cycles, chosen, verdict);
}

CostPlacement figures(const Candidate& a, const Candidate& b, const Lowering& verdict, const Lowering& chosen,
                      bool by_energy) {
  CostPlacement p;
  p.objective = by_energy ? "energy" : "cycles";
  p.cycles = {{a.lowering->name(), *a.cycles}, {b.lowering->name(), *b.cycles}};
  if (a.energy_pj && b.energy_pj)
    p.energy_pj = {{a.lowering->name(), *a.energy_pj}, {b.lowering->name(), *b.energy_pj}};
  p.verdict = verdict.name();
  p.chosen = chosen.name();
  p.reason = cost_reason(a, b, by_energy, chosen.name(), verdict.name());
  return p;
}

bool places_by_energy(const HardwareConfig& hw) {
  for (const Lowering* lowering : lowerings())
    if (lowering->places_by_energy(hw)) return true;
  return false;
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
                                                                      const Lowering& verdict, bool model_share,
                                                                      bool input_chained) {
  LayerTiling start = start_tiling(l);
  start.input_chained = input_chained;
  LayerTiling dense_tiling = start;
  dense_tiling.engine_plans = verdict_tiling.engine_plans;  // the probes' notes (the sparse verdict)
  std::vector<std::string> wanted;
  const Lowering* dense = dense_placement(l, dense_tiling, hw, wanted);
  if (!dense) return std::nullopt;
  if (model_share) return std::make_pair(dense, std::move(dense_tiling));
  std::optional<Candidate> claimed = claimed_by_cost(w, l, hw, start);
  if (!claimed || claimed->lowering == dense) return std::nullopt;
  Candidate other = costed(w, l, hw, *dense, dense_tiling);
  const bool by_energy = places_by_energy(hw);
  if (!claimed->cycles || !other.cycles || !weight(*claimed, by_energy) || !weight(other, by_energy))
    return std::nullopt;
  const bool claimed_wins = cost_choice(*weight(*claimed, by_energy), *weight(other, by_energy), &verdict != dense);
  Candidate& won = claimed_wins ? *claimed : other;
  CostPlacement note = figures(*claimed, other, verdict, *won.lowering, by_energy);
  // The probes' notes as the verdict rule left them (the verdict, not "the layer asks for it");
  // the winner's plan() fills in the rest of its entry.
  LayerTiling t = std::move(won.placed);
  for (const auto& [name, plan] : verdict_tiling.engine_plans) t.engine_plans[name] = plan;
  t.engine_plans[kCostPlacementNote] = std::move(note);
  return std::make_pair(won.lowering, std::move(t));
}

}  // namespace

bool cost_choice(double first, double second, bool first_is_verdict) {
  return first == second ? first_is_verdict : first < second;
}

LayerTiling tile_layer(const Workload& w, const Layer& l, const HardwareConfig& hw, const ChannelShares* shares,
                       bool input_chained, const LoadOrderPlan* order) {
  LayerTiling t = start_tiling(l);
  const Lowering* lowering = &place_layer(w, l, t, hw);
  const bool model_share = shares && shares->mode != ParallelMode::Data;
  if (cost_placement_applies(l, hw))
    if (auto by_cost = placed_by_cost(w, l, hw, t, *lowering, model_share, input_chained)) {
      lowering = by_cost->first;
      t = std::move(by_cost->second);
    }
  if (model_share) apply_shares(l, t, *shares);
  if (order) t.engine_plans[kLoadOrderNote] = *order;
  lowering->plan(w, l, hw, t);
  return t;
}

nlohmann::json cost_placement_json(const CostPlacement& p) {
  nlohmann::json cycles = nlohmann::json::object(), energy = nlohmann::json::object();
  for (const auto& [name, c] : p.cycles) cycles[name] = c;
  for (const auto& [name, pj] : p.energy_pj) energy[name] = pj;
  nlohmann::json j = {{"rule", p.objective == "energy" ? "auto-cost-energy" : "auto-cost"},
                      {"objective", p.objective},
                      {"predicted_cycles", cycles},
                      {"verdict", p.verdict},
                      {"chosen", p.chosen},
                      {"reason", p.reason}};
  if (!p.energy_pj.empty()) j["predicted_dynamic_energy_pj"] = energy;
  return j;
}

}  // namespace npusim
