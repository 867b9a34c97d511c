#include "models/sparse_cluster/SparseLayerMapping.h"

#include <fmt/format.h>

#include "models/compute_interconnect/NoOverlapPartition.h"
#include "models/sparse_compute_unit/ProductIndex.h"
#include "sim/tensor/SparseMask.h"

namespace npusim {

double measured_zeros(SparsityMeasure measure, double ifm_zeros, double weight_zeros) {
  if (measure == SparsityMeasure::IfmZeros) return ifm_zeros;
  return 1.0 - (1.0 - ifm_zeros) * (1.0 - weight_zeros);  // a product is zero when either operand is
}

std::optional<std::string> kernel_misfit(const SparseClusterConfig& cfg, std::uint32_t kh, std::uint32_t kw) {
  const std::uint64_t locations = std::uint64_t(var_side(kh)) * var_side(kw);
  if (locations <= cfg.min_ports) return std::nullopt;
  return fmt::format("a {}x{} kernel needs {} VAR locations but the MINs have {} ports (/core/sparse/min_ports)", kh,
                     kw, locations, cfg.min_ports);
}

SparseVerdict classify_layer(const SparseClusterConfig& cfg, std::uint32_t kh, std::uint32_t kw, double ifm_zeros,
                             double weight_zeros) {
  SparseVerdict v;
  v.zeros = measured_zeros(cfg.sparsity_measure, ifm_zeros, weight_zeros);
  const char* what = cfg.sparsity_measure == SparsityMeasure::IfmZeros ? "input-map zeros" : "zero products";
  v.sparse = is_sparse(v.zeros, cfg.sparse_threshold);
  if (!v.sparse) {
    v.reason = fmt::format("dense: {:.1f} % {} is below sparse_threshold {:.1f} %", 100 * v.zeros, what,
                           100 * cfg.sparse_threshold);
  } else if (auto misfit = kernel_misfit(cfg, kh, kw)) {
    v.sparse = false;
    v.reason = "dense: " + *misfit;
  } else {
    v.reason = fmt::format("sparse: {:.1f} % {} reaches sparse_threshold {:.1f} %", 100 * v.zeros, what,
                           100 * cfg.sparse_threshold);
  }
  return v;
}

CompressedMap assumed_map(std::uint32_t h, std::uint32_t w, std::uint32_t c, double zeros, std::uint64_t seed) {
  CompressedMap m{h, w, c, {}, sparse_mask(std::uint64_t(h) * w * c, zeros, seed)};
  m.values.assign(m.indices.size(), 1);
  return m;
}

SparseConvPlan::SparseConvPlan(const SparseClusterConfig& cfg, const ConvShape& g, const CompressedMap& ifm,
                               const CompressedMap& weights)
    : memory_units_(cfg.units),
      shape_(g),
      kernel_(g.co, g.kh, g.kw, g.ci, weights.values, weights.indices),
      partition_(partition_by_sparsity(g, ifm, cfg.partition_request())),
      compute_regions_(cfg.compute_interconnect == ComputeInterconnectKind::None
                           ? partition_.regions
                           : no_overlap_regions(g, partition_.regions)) {
  cells_.reserve(compute_regions_.size());
  for (const UnitRegion& r : compute_regions_) cells_.emplace_back(ifm, r, g.kh, g.kw);
}

SubmapWork SparseConvPlan::work(std::uint32_t submap, std::vector<std::int64_t>* sums) const {
  return {&shape_, compute_regions_[submap], &cells_[submap], &kernel_, sums};
}

std::uint32_t SparseConvPlan::memory_unit(std::uint32_t submap) const {
  return submap / ((submaps() + memory_units_ - 1) / memory_units_);
}

SubmapDispatcher SparseConvPlan::dispatcher(const MemoryInterconnect& net) const {
  std::vector<std::deque<std::uint32_t>> queues(memory_units_);
  std::vector<std::uint64_t> work(submaps());
  for (std::uint32_t j = 0; j < submaps(); ++j) {
    work[j] = cells_[j].nonzeros();
    if (!partition_.regions[j].empty()) queues[memory_unit(j)].push_back(j);
  }
  return SubmapDispatcher(net, std::move(queues), std::move(work));
}

}  // namespace npusim
