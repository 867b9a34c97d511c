// Placing conv and fc layers on the sparse tensor cluster (seed001) and sizing its bands.
#include "apps/compiler/lower_sparse/SparseLowering.h"

#include <algorithm>

#include "apps/compiler/tiling/LayerTiler.h"
#include "models/sparse_cluster/SparseClusterConfig.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

std::string engine_field(const Layer& l) { return layer_place(l) + ", field 'engine'"; }

// The scheduling engine's verdict on the cluster of the kind `placed` chose; a layer
// that asks for the cluster is sparse whatever the verdict, if its kernel fits.
SparseVerdict verdict(const Workload& w, const Layer& l, const LayerTiling& placed, const HardwareConfig& hw,
                      bool asked) {
  const auto& cfg = placed.kind(hw).block<SparseClusterConfig>(SparseClusterConfig::kSection);
  SparseVerdict v = classify_layer(cfg, placed.kernel_h, placed.kernel_w, l.activation_sparsity, l.weight_sparsity);
  if (!asked) return v;
  if (auto misfit = kernel_misfit(cfg, placed.kernel_h, placed.kernel_w))
    throw InputError(w.file, engine_field(l), "the sparse cluster cannot run it: " + *misfit);
  if (!v.sparse) v.reason = "sparse: the layer asks for it (" + v.reason + ")";
  v.sparse = true;
  return v;
}

}  // namespace

// Conv and fc layers go to a sparse cluster when the chip has one and its scheduling
// engine calls them sparse (or the layer asks for it); the verdict is kept either way.
bool SparseLowering::probe(const Workload& w, const Layer& l, LayerTiling& t, const HardwareConfig& hw) const {
  if (l.kind == LayerKind::Pool) return probe_pool(w, l, t, hw);
  if (l.kind != LayerKind::Conv && l.kind != LayerKind::Fc) return false;
  if (!l.engine.empty() && l.engine != name()) return false;
  if (l.groups > 1) return false;  // a grouped conv runs on the matrix unit, group by group
  const bool asked = l.engine == name();
  LayerTiling placed = t;
  if (!place_on(name(), {name()}, placed, hw)) {
    if (!asked) return false;
    throw InputError(w.file, engine_field(l), "no core of this chip has a sparse cluster");
  }
  t.engine_plans[name()] = SparseLayerPlan{verdict(w, l, placed, hw, asked)};
  if (!t.engine_plan<SparseLayerPlan>(name())->verdict.sparse) return false;
  placed.engine_plans = t.engine_plans;
  t = std::move(placed);
  return true;
}

namespace {

// The conv `l` reads, when it is a plain conv whose only reader is `l`; else null.
const Layer* sole_conv_producer(const Workload& w, const Layer& l) {
  if (w.independent_layers || l.inputs.size() != 1) return nullptr;
  const Layer* conv = nullptr;
  std::size_t readers = 0;
  for (const Layer& other : w.layers) {
    if (other.name == l.inputs[0]) conv = &other;
    readers += std::count(other.inputs.begin(), other.inputs.end(), l.inputs[0]);
  }
  if (!conv || readers != 1 || conv->kind != LayerKind::Conv || conv->groups > 1 || conv->dilation > 1) return nullptr;
  return conv;
}

}  // namespace

// The cluster takes the pool when it takes its conv (the verdict rule: auto-cost places the
// conv later, by cost) in one band per image (no more cores than images).
bool SparseLowering::probe_pool(const Workload& w, const Layer& l, LayerTiling& t, const HardwareConfig& hw) const {
  const Layer* conv = sole_conv_producer(w, l);
  if (!conv || !l.engine.empty() || (!conv->engine.empty() && conv->engine != name())) return false;
  LayerTiling placed = t;
  if (!place_on(name(), {name()}, placed, hw) || placed.cores.size() > w.batch) return false;
  const auto& cfg = placed.kind(hw).block<SparseClusterConfig>(SparseClusterConfig::kSection);
  if (cfg.placement != LayerPlacementRule::Verdict || kernel_misfit(cfg, conv->kh, conv->kw)) return false;
  SparseVerdict v = classify_layer(cfg, conv->kh, conv->kw, conv->activation_sparsity, conv->weight_sparsity);
  if (!v.sparse && conv->engine != name()) return false;
  v.sparse = true;
  v.reason = "pooled in the back end of " + conv->name + " (seed001 ¶168)";
  placed.engine_plans[name()] = SparseLayerPlan{v, 0, true};
  t = std::move(placed);
  return true;
}

// Enough bands of output rows to give every core work; the cluster's own buffers take a
// band in parts, so capacity does not limit the height. Each band is compressed into a
// DRAM slot and convolved by the cluster; no NRAM.
void SparseLowering::plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const {
  const std::uint32_t want = std::min<std::uint32_t>(l.out.h, (std::uint32_t(t.cores.size()) + w.batch - 1) / w.batch);
  t.rows = (l.out.h + want - 1) / want;
  t.bands = (l.out.h + t.rows - 1) / t.rows;
  const std::uint32_t in_rows = std::min(l.in.h, (t.rows - 1) * l.sh + t.kernel_h);
  auto& plan = std::any_cast<SparseLayerPlan&>(t.engine_plans.at(name()));
  plan.band_elements = std::uint64_t(in_rows) * l.in.w * l.in.c;
  t.co_block = l.out.c;
}

}  // namespace npusim
