// Pooling in the compute units' back end (seed001 1370/1470/1590, ¶137-138, ¶168): after
// requantization and ReLU, b pooling units per unit reduce windows of the output map
// before it is compressed or stored, so no pool layer runs on the vector unit. Windows
// cross the units' borders, so pooling starts when every unit's sums are in (the outputs
// "combined with other units' outputs", ¶139); each pooled output belongs to the unit
// holding the first real row and column of its window.
#include <algorithm>
#include <cstring>

#include "models/sparse_cluster/SparseOps.h"
#include "models/sparse_cluster/SparseTensorCluster.h"

namespace npusim {

namespace {

// The pooled outputs [p0, p1) whose windows start (first real row or column) in [i0, i1).
std::pair<std::uint32_t, std::uint32_t> pooled_span(std::uint32_t i0, std::uint32_t i1, std::uint32_t stride,
                                                    std::uint32_t pad, std::uint32_t outputs) {
  const auto start = [&](std::uint32_t p) { return std::max<std::int64_t>(0, std::int64_t(p) * stride - pad); };
  std::uint32_t p0 = 0, p1 = 0;
  while (p0 < outputs && start(p0) < i0) ++p0;
  p1 = p0;
  while (p1 < outputs && start(p1) < i1) ++p1;
  return {p0, p1};
}

}  // namespace

std::optional<ChannelWindow> back_end_pool(const nlohmann::json& params, const ConvShape& g) {
  if (!params.contains("pool")) return std::nullopt;
  const nlohmann::json& p = params["pool"];
  ChannelWindow w;
  w.hi = g.ho();
  w.wi = g.wo();
  w.c = g.co;
  const auto kernel = p.at("kernel").get<std::vector<std::uint32_t>>();
  w.kh = kernel[0];
  w.kw = kernel[1];
  w.read_params(p);
  return w;
}

// Functional runs pool the requantized map with the vector unit's own kernel (the same
// arithmetic); each finished unit's rectangle becomes its share of the pooled map, done
// when its pooling units have reduced it.
void SparseTensorCluster::pool_back_end(ConvSchedule& run) {
  const ChannelWindow& w = *run.pool;
  if (setup().functional) {
    std::vector<std::int8_t> pooled(std::size_t(w.ho()) * w.wo() * w.c);
    vector_pool(w, run.inst.params["pool"].at("max").get<bool>(), reinterpret_cast<const std::uint8_t*>(run.ofm.data()),
                reinterpret_cast<std::uint8_t*>(pooled.data()));
    run.ofm = std::move(pooled);
  }
  Cycles all_in = run.start;
  for (const ConvSchedule::Finished& f : run.finished) all_in = std::max(all_in, f.computed);
  for (ConvSchedule::Finished& f : run.finished) {
    const UnitRegion r = f.region;
    const auto [y0, y1] = pooled_span(r.oy0, r.oy1, w.sh, w.pad_top, w.ho());
    const auto [x0, x1] = pooled_span(r.ox0, r.ox1, w.sw, w.pad_left, w.wo());
    f.region = UnitRegion{y0, y1, x0, x1, 0, 0, 0, 0};
    const std::uint64_t outputs = std::uint64_t(y1 - y0) * (x1 - x0) * w.c;
    f.computed = all_in + (outputs + cfg_.pool_units - 1) / cfg_.pool_units;
  }
}

// A dense pooled map: each unit stores its pooled rows through its memory unit.
void SparseTensorCluster::store_pooled(ConvSchedule& run) {
  const TensorOperand& out = run.inst.outputs.at(0);
  const std::uint32_t co = run.pool->c, wo = run.pool->wo();
  for (const ConvSchedule::Finished& f : run.finished) {
    const UnitRegion& r = f.region;
    const std::uint64_t row_bytes = std::uint64_t(r.ox1 - r.ox0) * co;
    Cycles stored = f.computed;
    for (std::uint32_t oy = r.oy0; oy < r.oy1 && row_bytes > 0; ++oy) {
      const std::uint64_t first = (std::uint64_t(oy) * wo + r.ox0) * co;
      const std::uint8_t* data = setup().functional ? reinterpret_cast<const std::uint8_t*>(&run.ofm[first]) : nullptr;
      stored = std::max(stored, fm_units_[f.memory]->store(out.offset + first, row_bytes, data, f.computed));
    }
    run.out_bytes += row_bytes * (r.oy1 - r.oy0);
    run.done = std::max(run.done, stored);
    f.tally->done = std::max(f.tally->done, stored);
  }
}

}  // namespace npusim
