#include "models/sparse_cluster/Explain.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>

#include "models/compression_block/CompressedRows.h"
#include "models/matrix_unit/Explain.h"
#include "models/sparse_cluster/SparseEstimate.h"
#include "models/sparse_cluster/SparseIsoArea.h"
#include "models/sparse_cluster/SparseLayerMapping.h"
#include "models/sparse_compute_unit/ProductIndex.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

const CoreConfig* sparse_kind(const HardwareConfig& cfg) {
  for (const CoreConfig* kind : cfg.kinds())
    if (kind->has_engine(SparseClusterConfig::kSection)) return kind;
  return nullptr;
}

const SparseClusterConfig& cluster_of(const CoreConfig& kind) {
  return kind.block<SparseClusterConfig>(SparseClusterConfig::kSection);
}

double fraction_of(const std::string& key, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= 0 && v <= 1))
    throw InputError("sparsity spec", key, "expected a zero fraction from 0 to 1, got '" + text + "'");
  return v;
}

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

// explain places every non-zero of the layer and forms every product, taking time and memory in
// proportion to these; past them it refuses the layer (about half a second at the limits).
constexpr std::uint64_t kExplainSparsePositions = std::uint64_t(1) << 20;  // input positions hi x wi
constexpr std::uint64_t kExplainSparseElements = std::uint64_t(1) << 21;   // input or weight elements
constexpr std::uint64_t kExplainSparseProducts = std::uint64_t(1) << 24;   // expected non-zero products
constexpr std::uint64_t kExplainSparseScans = std::uint64_t(1) << 25;      // kh x kw cells x co x ci visited

void check_sparse_explain_limits(const ConvShape& g, const LayerSparsity& zeros) {
  for (const auto& [key, side] : {std::pair{"hi", g.hi}, std::pair{"wi", g.wi}})
    if (side > kMaxSparseMapSide)
      throw InputError("layer spec", key,
                       fmt::format("{} exceeds {}: the sparse cluster keeps rows and columns in 16 bits", side,
                                   kMaxSparseMapSide));
  const double positions = double(g.hi) * g.wi, window = double(g.kh) * g.kw * g.ci;
  check_explain_limit(positions, kExplainSparsePositions, "input positions (hi x wi)");
  check_explain_limit(positions * g.ci, kExplainSparseElements, "input elements (hi x wi x ci)");
  check_explain_limit(window * g.co, kExplainSparseElements, "weight elements (co x kh x kw x ci)");
  const double dense_macs = double(g.ho()) * g.wo() * g.co * window;
  check_explain_limit(dense_macs * (1 - zeros.ifm) * (1 - zeros.weights), kExplainSparseProducts,
                      "expected non-zero products");
  // Each unit visits every input channel of every kh x kw cell for every output channel.
  check_explain_limit(dense_macs / (double(g.kh) * g.kw) / (double(g.kh) * g.kw), kExplainSparseScans,
                      "cell channel visits (ho x wo x co x ci / (kh x kw))");
}

std::string submap_row(const SparseClusterConfig& sc, const UnitRegion& r, const SubmapRun& run) {
  const SubmapStats& st = run.stats;
  return fmt::format("{:>6} {:>4} {:>4} {:>4}-{:<4} {:>4}-{:<4} {:>7} {:>8} {:>9} {:>5.1f}% {:>10} {:>8} {:>7} {:>9} {:>9}\n",
                     run.submap, run.memory_unit, run.unit, r.oy0, r.oy1, r.ox0, r.ox1, st.nonzeros,
                     st.multipliers.rounds, st.multipliers.products,
                     100 * ratio(st.multipliers.products, double(st.multiplier_slots(sc.multipliers))),
                     st.arbiter.collisions, st.multipliers.reissued, st.windows, run.busy, run.end);
}

}  // namespace

LayerSparsity parse_sparsity_spec(const std::string& spec) {
  LayerSparsity z;
  std::istringstream in(spec);
  for (std::string item; std::getline(in, item, ',');) {
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key == "ifm") {
      z.ifm = fraction_of(key, value);
    } else if (key == "weights") {
      z.weights = fraction_of(key, value);
    } else if (key == "seed") {
      if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos || value.size() > 18)
        throw InputError("sparsity spec", key, "expected a non-negative integer, got '" + value + "'");
      z.seed = std::stoull(value);
    } else {
      throw InputError("sparsity spec", item, "unknown key (expected ifm=F, weights=F, seed=N)");
    }
  }
  return z;
}

bool sparse_verdict(const HardwareConfig& cfg, const ConvShape& layer, const LayerSparsity& zeros) {
  const CoreConfig* kind = sparse_kind(cfg);
  return kind && classify_layer(cluster_of(*kind), layer.kh, layer.kw, zeros.ifm, zeros.weights).sparse;
}

std::string sparse_verdict_line(const HardwareConfig& cfg, const ConvShape& layer, const LayerSparsity& zeros) {
  const CoreConfig* kind = sparse_kind(cfg);
  if (!kind) return "";
  return fmt::format("scheduling engine (seed001 §2.1): {}\n",
                     classify_layer(cluster_of(*kind), layer.kh, layer.kw, zeros.ifm, zeros.weights).reason);
}

std::string explain_sparse_layer(const HardwareConfig& cfg, const ConvShape& layer, const LayerSparsity& zeros) {
  validate_conv_shape(layer);
  const CoreConfig* kind = sparse_kind(cfg);
  if (!kind)
    throw InputError("config", "/core/engines",
                     "this chip has no sparse cluster; use a config with the sparse engine (configs/sparse.json)");
  const SparseClusterConfig& sc = cluster_of(*kind);
  if (auto misfit = kernel_misfit(sc, layer.kh, layer.kw)) throw InputError("layer spec", "kh", *misfit);
  ConvShape g = layer;
  g.n = 1;
  check_sparse_explain_limits(g, zeros);
  const CompressedMap ifm = assumed_map(g.hi, g.wi, g.ci, zeros.ifm, zeros.seed);
  const CompressedMap weights = assumed_map(g.co, g.kh * g.kw, g.ci, zeros.weights, zeros.seed + 1);
  const SparseConvPlan plan(sc, g, ifm, weights);
  const SparsityPartition& part = plan.partition();

  std::string s;
  s += fmt::format("layer {}  (one image; {} image(s) run one after another)\n", layer.to_string(), layer.n);
  s += fmt::format("zeros: input map {:.1f} %, weights {:.1f} % (seed {}): {} input non-zeros, {} weight non-zeros\n",
                   100 * zeros.ifm, 100 * zeros.weights, zeros.seed, ifm.values.size(), weights.values.size());
  s += sparse_verdict_line(cfg, layer, zeros);
  s += fmt::format("sparse cluster on core kind '{}': {} units of kind {}, p = {} multipliers, {} weight(s) per round "
                   "at most, {}-port Benes MINs, VAR {}x{} = {} locations\n",
                   kind->kind, sc.units, nlohmann::json(sc.unit_kind).get<std::string>(), sc.multipliers,
                   sc.unit_kind == SparseUnitKind::Unit1300 ? 1u : sc.max_weights_per_round, sc.min_ports,
                   var_side(g.kh), var_side(g.kw), var_side(g.kh) * var_side(g.kw));
  if (sc.iso_area != IsoAreaSizing::None) s += cluster_area_line(*kind, *cfg.energy);
  s += "\n";
  s += fmt::format("partition (seed001 §2.2): {} x {} grid, {}, metric {}, threshold {:.1f} %: {} boundary moves, "
                   "imbalance {:.1f} %\n",
                   part.grid_rows, part.grid_cols, nlohmann::json(sc.partition).get<std::string>(),
                   nlohmann::json(sc.balance_metric).get<std::string>(), 100 * sc.balance_threshold, part.moves,
                   100 * part.imbalance);
  s += fmt::format("memory interconnect {} ({} sub-map(s) per unit)\n", nlohmann::json(sc.memory_interconnect).get<std::string>(),
                   sc.submaps_per_unit);
  s += fmt::format("{:>6} {:>4} {:>4} {:>9} {:>9} {:>7} {:>8} {:>9} {:>6} {:>10} {:>8} {:>7} {:>9} {:>9}\n", "submap",
                   "mem", "unit", "out rows", "out cols", "nnz", "rounds", "products", "util", "collisions",
                   "reissued", "windows", "busy", "ends at");
  const SparseConvEstimate est = estimate_sparse_conv(sc, plan, ifm, weights.values.size());
  std::vector<std::string> rows(plan.submaps());
  for (const SubmapRun& run : est.runs) rows[run.submap] = submap_row(sc, part.regions[run.submap], run);
  for (const auto& row : rows) s += row;
  const std::uint64_t dense = std::uint64_t(g.ho()) * g.wo() * g.co * g.kh * g.kw * g.ci;
  s += fmt::format("\ndense MACs {}  products {} ({:.1f} % of dense)  multiplier utilization {:.1f} %\n", dense,
                   est.products, 100 * ratio(est.products, dense),
                   100 * ratio(est.products, double(est.rounds) * sc.multipliers));
  s += fmt::format("weights load {} cycles; the last output sub-map is stored at about {} cycles per image\n",
                   est.weight_load, est.finish);
  s += "(estimates without DRAM contention, per image; `npusim run` times the real traffic)\n";
  return s;
}

}  // namespace npusim
