#include "apps/compiler/TraceEmitter.h"

#include <memory>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "apps/frontend/workload/TensorLiveness.h"
#include "apps/compiler/emit/Lowering.h"
#include "apps/compiler/planning/LoadOrderPlanner.h"

namespace npusim {
namespace {

// Whether `l`'s one input, from a layer placed before it, would come as its producer's
// engine stores it if `l` ran there too (Lowering::chains_to): placement by cost weighs it.
// `placed_at` finds the producer by name (a scan per layer made long chains quadratic).
bool input_chained(const std::vector<CompiledLayer>& placed, const std::unordered_map<std::string, std::size_t>& placed_at,
                   const Layer& l, const Workload& w) {
  if (l.inputs.size() != 1) return false;
  const auto at = placed_at.find(l.inputs[0]);
  if (at == placed_at.end()) return false;
  const CompiledLayer& p = placed[at->second];
  return lowering(p.tiling.engine).chains_to(p.layer, p.output_readers, l, w);
}

// Chooses how each layer's cores share it and tiles it so, in order: a layer's producers are
// placed before it.
std::vector<CompiledLayer> plan_each(const Workload& w, const HardwareConfig& hw, const SplitOptions& split) {
  const SplitPlanner planner(w, hw, split);
  const LoadOrderPlanner orders(w, hw, split);
  const WorkloadLiveness liveness = tensor_liveness(w);
  std::vector<CompiledLayer> layers;
  std::unordered_map<std::string, std::size_t> placed_at;
  for (std::size_t i = 0; i < w.layers.size(); ++i) {
    CompiledLayer c;
    c.layer = w.layers[i];
    const bool chained = input_chained(layers, placed_at, c.layer, w);
    std::tie(c.tiling, c.split) = planner.plan(c.layer, liveness.outputs[i].readers, i, chained);
    orders.plan(c.layer, c.tiling, chained);
    c.output_readers = liveness.outputs[i].readers;
    c.last_reader = liveness.outputs[i].last_reader;
    placed_at.emplace(c.layer.name, layers.size());
    layers.push_back(std::move(c));
  }
  return layers;
}

bool same_modes(const std::vector<CompiledLayer>& a, const std::vector<CompiledLayer>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].tiling.split != b[i].tiling.split) return false;
  return true;
}

// Auto's trials time each layer alone; beside its neighbours a layer that won alone can
// cost the network more (its DRAM traffic overlaps theirs). When the picks over every mode
// differ from the picks over seed002's three pure modes (data, model-co, model-ci), the
// whole network runs both ways (the trials' cache inherited, so no layer runs again) and
// the faster plan is kept, so adding modes never makes auto's network slower.
std::vector<CompiledLayer> plan_layers(const Workload& w, const HardwareConfig& hw, const SplitOptions& split) {
  SplitOptions every = split;
  if (!every.trials) every.trials = std::make_shared<TrialCache>();
  std::vector<CompiledLayer> layers = plan_each(w, hw, every);
  if (!every.trial || !every.check_network || !every.modes.empty()) return layers;
  SplitOptions pure = every;
  pure.modes = {ParallelMode::Data, ParallelMode::ModelCo, ParallelMode::ModelCi};
  std::vector<CompiledLayer> three = plan_each(w, hw, pure);
  if (same_modes(layers, three)) return layers;
  every.check_network = pure.check_network = false;
  const auto with_all = every.trial(w, hw, every), with_three = every.trial(w, hw, pure);
  const bool keep_three = with_all && with_three && *with_three < *with_all;
  std::vector<CompiledLayer>& kept = keep_three ? three : layers;
  for (std::size_t i = 0; i < kept.size(); ++i)
    if (layers[i].tiling.split != three[i].tiling.split)
      kept[i].split.reason += fmt::format("; over every mode {} wins here alone, over the three pure modes {}: the "
                                          "network runs {} cycles with every mode's picks, {} with the three's, so "
                                          "the {} are kept",
                                          parallel_mode_name(layers[i].tiling.split),
                                          parallel_mode_name(three[i].tiling.split),
                                          with_all ? std::to_string(*with_all) : "?",
                                          with_three ? std::to_string(*with_three) : "?",
                                          keep_three ? "three's" : "every mode's");
  return std::move(kept);
}

}  // namespace

TraceEmitter::TraceEmitter(const Workload& workload, const HardwareConfig& hw, const SplitOptions& split)
    : ctx_(workload, hw, plan_layers(workload, hw, split)) {}

bool TraceEmitter::next(Instruction& out) {
  while (!ctx_.pop(out)) {
    if (ctx_.done()) return false;
    if (!layer_started_) start_layer();
    emit_step();
  }
  return true;
}

void TraceEmitter::start_layer() {
  const Lowering& lowering_of_layer = lowering(ctx_.layer().tiling.engine);
  steps_ = ctx_.start_layer(lowering_of_layer.tiles(ctx_));
  for (const Lowering* l : lowerings()) l->see_layer(ctx_);
  lowering_of_layer.start_layer(ctx_);
  layer_started_ = true;
}

// One band on every core that has one, interleaved so that no core waits on the
// controller while another core's queue is full.
void TraceEmitter::emit_step() {
  const CompiledLayer& c = ctx_.layer();
  const Lowering& lowering_of_layer = lowering(c.tiling.engine);
  for (std::uint32_t k : c.tiling.cores) {
    const CoreState& cs = ctx_.core(k);
    if (cs.first_tile + ctx_.step() >= cs.end_tile) continue;
    lowering_of_layer.emit_tile(ctx_, k, cs.first_tile + (ctx_.step() + cs.rotation) % (cs.end_tile - cs.first_tile));
  }
  lowering_of_layer.end_step(ctx_);
  if (ctx_.next_step(steps_, lowering_of_layer.passes(ctx_))) return;
  ctx_.finish_layer();
  layer_started_ = false;
}

}  // namespace npusim
