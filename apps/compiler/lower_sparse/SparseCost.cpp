// Placement by cost on the sparse tensor cluster: the predicted cycles and counters of a
// planned layer (apps/compiler/planning/LayerPlacement.h), both from one estimate.
#include <algorithm>
#include <cmath>

#include "apps/compiler/lower_sparse/SparseLowering.h"
#include "apps/compiler/tiling/LayerTiler.h"
#include "models/sparse_cluster/SparseClusterConfig.h"
#include "models/sparse_cluster/SparseEstimate.h"

namespace npusim {

namespace {

LayerPlacementRule placement_rule(const CoreConfig& kind) {
  return kind.block<SparseClusterConfig>(SparseClusterConfig::kSection).placement;
}

// Whether any core kind's cluster asks for one of `rules`.
bool asks_for(const HardwareConfig& hw, const std::string& engine, std::initializer_list<LayerPlacementRule> rules) {
  for (const CoreConfig* kind : hw.kinds())
    if (kind->has_engine(engine) && std::count(rules.begin(), rules.end(), placement_rule(*kind))) return true;
  return false;
}

// What both predictions start from: the explain estimate of one band's sparse_conv (from the
// layer's declared zeros and the seed its instructions use), and the dense elements compressed.
struct SparseLayerCost {
  const SparseClusterConfig* cfg = nullptr;
  SparseConvEstimate band;
  double input = 0;                          // one band's dense input elements; 0 when chained
  double weights = 0, weight_nonzeros = 0;   // the layer's weights, compressed once on the chip; 0 when offline
  double tiles = 0, tiles_per_core = 0;      // bands of every image; of the busiest core
};

SparseLayerCost layer_cost(const Workload& w, const Layer& l, const LayerTiling& t, const HardwareConfig& hw) {
  SparseLayerCost c;
  c.cfg = &t.kind(hw).block<SparseClusterConfig>(SparseClusterConfig::kSection);
  std::uint64_t index = 0;
  while (index < w.layers.size() && w.layers[index].name != l.name) ++index;
  const ConvShape band = band_conv_shape(l, t, t.band(l, 0, t.rows), l.out.c);
  c.band = estimate_sparse_layer(*c.cfg, band, l.activation_sparsity, l.weight_sparsity, w.seed + index);
  // An input that arrives compressed (LayerTiling::input_chained) is not compressed again.
  if (!t.input_chained) c.input = double(t.engine_plan<SparseLayerPlan>(SparseLowering::kName)->band_elements);
  if (c.cfg->weight_compression == WeightCompression::OnChip) {
    c.weights = double(band.co) * band.kh * band.kw * band.ci;
    c.weight_nonzeros = c.weights * (1 - l.weight_sparsity);
  }
  c.tiles = double(t.tiles(w.batch));
  c.tiles_per_core = std::ceil(c.tiles / double(std::max<std::size_t>(1, t.cores.size())));
  return c;
}

// The bytes the band's input compress writes, and its cycles: none when the input is chained.
double compressed_input_bytes(const SparseLayerCost& c) { return c.input > 0 ? double(c.band.map_bytes) : 0.0; }
double compress_input_cycles(const SparseLayerCost& c) {
  return c.input > 0 ? estimate_compress(*c.cfg, c.input, compressed_input_bytes(c)) : 0.0;
}

}  // namespace

bool SparseLowering::places_by_cost(const HardwareConfig& hw) const {
  return asks_for(hw, name(), {LayerPlacementRule::AutoCost, LayerPlacementRule::AutoCostEnergy});
}

bool SparseLowering::places_by_energy(const HardwareConfig& hw) const {
  return asks_for(hw, name(), {LayerPlacementRule::AutoCostEnergy});
}

// For each band of the busiest core: the compress of its dense input rows into the recursive
// format (its values and index bytes), which runs on the cluster's queue before the band's
// sparse_conv (none when the input arrives compressed), and the estimate of that sparse_conv;
// and once, the flat compress of the weights when they are not compressed offline.
std::optional<double> SparseLowering::layer_cycles(const Workload& w, const Layer& l, const LayerTiling& t,
                                                   const HardwareConfig& hw) const {
  const SparseLayerCost c = layer_cost(w, l, t, hw);
  const double per_band = double(c.band.finish) + compress_input_cycles(c);
  const double weights = c.weights > 0 ? estimate_compress(*c.cfg, c.weights, compressed_bytes(c.weight_nonzeros)) : 0;
  return per_band * c.tiles_per_core + weights;
}

// The same passes counted over every band, as the cluster's counters (SparseClusterEnergy.cpp)
// and the DRAM see them: each band's compress reads its dense rows and writes them compressed,
// its sparse_conv loads the weights and sub-maps and stores the output rectangles dense.
std::optional<Lowering::PredictedCounts> SparseLowering::layer_counts(const Workload& w, const Layer& l,
                                                                      const LayerTiling& t,
                                                                      const HardwareConfig& hw) const {
  const SparseLayerCost c = layer_cost(w, l, t, hw);
  const SparseConvEstimate& e = c.band;
  std::uint64_t iterations = 0;
  for (const SubmapRun& run : e.runs) iterations += run.stats.multipliers.iterations;
  PredictedCounts p;
  p.counters = {{"compressed_elements", c.input * c.tiles + c.weights},
                {"products", double(e.products) * c.tiles},
                {"min_passes", 2.0 * double(e.rounds) * c.tiles},
                {"input_nonzeros", double(e.loaded_value_bytes) * c.tiles},
                {"iterations", double(iterations) * c.tiles},
                {"value_bytes", double(e.loaded_value_bytes) * c.tiles},
                {"index_bytes", double(e.loaded_index_bytes) * c.tiles},
                {"weight_value_bytes", double(e.weight_nonzeros) * c.tiles},
                {"weight_index_bytes", double(e.weight_bytes - e.weight_nonzeros) * c.tiles}};
  const double loads = double(e.weight_bytes + e.loaded_value_bytes + e.loaded_index_bytes);
  p.dram_read = (c.input + loads) * c.tiles + c.weights;
  p.dram_written = (compressed_input_bytes(c) + double(e.stored_bytes)) * c.tiles +
                   compressed_bytes(c.weight_nonzeros);
  return p;
}

}  // namespace npusim
