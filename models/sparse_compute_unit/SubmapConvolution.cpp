#include "models/sparse_compute_unit/SubmapConvolution.h"

#include <memory>

#include "models/sparse_compute_unit/ProductIndex.h"

namespace npusim {

namespace {
// Output coordinate of full-correlation position `full` along one axis, or -1.
inline std::int64_t output_at(std::int64_t full, std::uint32_t k, std::uint32_t pad, std::uint32_t stride,
                              std::uint32_t o0, std::uint32_t o1) {
  const std::int64_t t = full - (k - 1) + pad;
  if (t < 0 || t % stride != 0) return -1;
  const std::int64_t o = t / stride;
  return o >= o0 && o < o1 ? o : -1;
}
}  // namespace

void window_pairs(const SubmapWork& work, std::uint32_t cy, std::uint32_t cx, std::uint32_t co,
                  std::vector<OperandPair>& pairs) {
  const ConvShape& g = *work.shape;
  const UnitRegion& r = work.region;
  const std::int32_t cell_row = std::int32_t(r.row0 + cy * work.cells->cell_h());
  const std::int32_t cell_col = std::int32_t(r.col0 + cx * work.cells->cell_w());
  const std::uint32_t var_w = var_side(g.kw);
  pairs.clear();
  std::uint32_t weight_id = 0;
  for (std::uint32_t ci = 0; ci < g.ci; ++ci) {
    const NonZero* d0 = work.cells->begin(cy, cx, ci);
    const NonZero* d1 = work.cells->end(cy, cx, ci);
    if (d0 == d1) continue;
    for (const NonZero* w = work.kernel->begin(co, ci); w != work.kernel->end(co, ci); ++w, ++weight_id)
      for (const NonZero* d = d0; d != d1; ++d) {
        const ProductIndex at = product_index(d->row, d->col, w->row, w->col, g.kh, g.kw);
        if (output_at(at.row, g.kh, g.pad_top, g.sh, r.oy0, r.oy1) < 0 ||
            output_at(at.col, g.kw, g.pad_left, g.sw, r.ox0, r.ox1) < 0)
          continue;
        const auto var = std::uint32_t((at.row - cell_row) * std::int32_t(var_w) + (at.col - cell_col));
        pairs.push_back({d->value, w->value, var, weight_id});
      }
  }
}

SubmapStats convolve_submap(const ComputeUnitShape& unit, const SubmapWork& work) {
  const ConvShape& g = *work.shape;
  const UnitRegion& r = work.region;
  SubmapStats stats;
  stats.nonzeros = work.cells->nonzeros();
  MultiplierArray multipliers(unit.kind, unit.multipliers, unit.max_weights, var_side(g.kh) * var_side(g.kw),
                              unit.adder_merge);
  const bool functional = work.sums != nullptr;
  const bool adder_path = g.kh == 1 && g.kw == 1;
  // Accumulator buffer 1350 over the window's full-correlation positions, one output channel.
  const std::uint32_t buf_h = r.rows + g.kh - 1, buf_w = r.cols + g.kw - 1;
  std::vector<std::int64_t> buffer;
  VariableAccumulator* var = nullptr;
  std::unique_ptr<VariableAccumulator> var_owner;
  if (functional) {
    buffer.assign(std::size_t(buf_h) * buf_w, 0);
    var_owner = std::make_unique<VariableAccumulator>(unit.min_ports, var_side(g.kh), var_side(g.kw));
    var = var_owner.get();
  }
  std::vector<OperandPair> pairs;
  const std::uint32_t out_w = r.ox1 - r.ox0;
  for (std::uint32_t co = 0; co < g.co; ++co) {
    for (std::uint32_t cy = 0; cy < work.cells->cells_y(); ++cy)
      for (std::uint32_t cx = 0; cx < work.cells->cells_x(); ++cx) {
        if (work.cells->cell_nonzeros(cy, cx) == 0) continue;
        window_pairs(work, cy, cx, co, pairs);
        if (pairs.empty()) continue;
        ++stats.windows;
        if (!functional) {
          multipliers.issue(pairs, adder_path, [](const RoundView&) {});
          continue;
        }
        var->load(buffer, buf_w, buf_h, cy * g.kh, cx * g.kw);
        multipliers.issue(pairs, adder_path, [var](const RoundView& round) { var->accumulate(round); });
        var->write_back(buffer, buf_w, buf_h);
      }
    if (!functional) continue;
    // ReLU, pooling and requantization come after: here the output sub-map leaves the buffer.
    for (std::uint32_t oy = r.oy0; oy < r.oy1; ++oy)
      for (std::uint32_t ox = r.ox0; ox < r.ox1; ++ox) {
        const std::int64_t R = std::int64_t(oy) * g.sh - g.pad_top + g.kh - 1 - r.row0;
        const std::int64_t C = std::int64_t(ox) * g.sw - g.pad_left + g.kw - 1 - r.col0;
        std::int64_t& out = (*work.sums)[(std::size_t(oy - r.oy0) * out_w + (ox - r.ox0)) * g.co + co];
        out = R >= 0 && C >= 0 && R < buf_h && C < buf_w ? buffer[std::size_t(R) * buf_w + C] : 0;
      }
    std::fill(buffer.begin(), buffer.end(), 0);
  }
  stats.multipliers = multipliers.stats();
  stats.arbiter = multipliers.arbiter_stats();
  if (var) {
    stats.read_min = var->read_min();
    stats.write_min = var->write_min();
  }
  return stats;
}

}  // namespace npusim
