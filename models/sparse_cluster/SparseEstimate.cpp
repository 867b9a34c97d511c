#include "models/sparse_cluster/SparseEstimate.h"

#include <algorithm>

#include "models/compression_block/CompressedRows.h"

namespace npusim {

SparseConvEstimate estimate_sparse_conv(const SparseClusterConfig& sc, const SparseConvPlan& plan,
                                        const CompressedMap& ifm, std::uint64_t weight_nonzeros) {
  const ConvShape& g = plan.shape();
  const CompressedRowSizes ifm_rows = compressed_row_sizes(CompressedRows{g.hi, g.wi, g.ci}, ifm.indices);
  const ComputeUnitShape unit = sc.unit_shape();
  const ComputeUnitTiming timing = sc.unit_timing();
  const MemoryInterconnect net = sc.memory_network();
  SparseConvEstimate e;
  e.map_bytes = ifm_rows.total();
  e.weight_nonzeros = weight_nonzeros;
  e.weight_bytes = std::uint64_t(double(kCompressedEntryBytes) * double(weight_nonzeros));
  e.weight_load = std::uint64_t(double(e.weight_bytes) / sc.dma_bytes_per_cycle);
  e.finish = e.weight_load;
  SubmapDispatcher dispatcher = plan.dispatcher(net);
  std::vector<double> dma_free(sc.units, 0.0);
  dispatch_submaps(dispatcher, sc.units, e.weight_load,
                   [&](std::uint32_t u, const SubmapDispatcher::Pick& pick, std::uint64_t free) {
                     const UnitRegion& r = plan.partition().regions[pick.submap];
                     SubmapRun run{pick.submap, pick.memory_unit, u, convolve_submap(unit, plan.work(pick.submap))};
                     run.busy = timing.busy(run.stats);
                     double& dma = dma_free[pick.memory_unit];
                     const std::uint64_t index_bytes = window_index_bytes(ifm_rows, r.row0, r.rows, r.col0, r.cols, g.wi);
                     e.loaded_value_bytes += run.stats.nonzeros;
                     e.loaded_index_bytes += index_bytes;
                     dma += double(run.stats.nonzeros + index_bytes) / sc.dma_bytes_per_cycle;
                     const std::uint64_t begin =
                         std::max<std::uint64_t>(free, std::uint64_t(dma) + net.latency(u, pick.memory_unit));
                     run.end = begin + run.busy;
                     const std::uint64_t stored = std::uint64_t(r.oy1 - r.oy0) * (r.ox1 - r.ox0) * g.co;
                     e.stored_bytes += stored;
                     dma = std::max(dma, double(run.end + sc.pipeline_latency)) + double(stored) / sc.dma_bytes_per_cycle;
                     e.finish = std::max(e.finish, std::uint64_t(dma));
                     e.products += run.stats.multipliers.products;
                     e.rounds += run.stats.multipliers.rounds;
                     e.runs.push_back(run);
                     return run.end;
                   });
  return e;
}

double estimate_compress(const SparseClusterConfig& sc, double dense, double written) {
  const double read = std::max(dense / sc.dma_bytes_per_cycle, dense / sc.compress_elements_per_cycle);
  return read + written / sc.dma_bytes_per_cycle;
}

double compressed_bytes(double nonzeros) { return double(kCompressedEntryBytes) * nonzeros; }

SparseConvEstimate estimate_sparse_layer(const SparseClusterConfig& sc, const ConvShape& g, double ifm_zeros,
                                         double weight_zeros, std::uint64_t seed) {
  const CompressedMap ifm = assumed_map(g.hi, g.wi, g.ci, ifm_zeros, seed);
  const CompressedMap weights = assumed_map(g.co, g.kh * g.kw, g.ci, weight_zeros, seed + 1);
  return estimate_sparse_conv(sc, SparseConvPlan(sc, g, ifm, weights), ifm, weights.values.size());
}

}  // namespace npusim
