#include "models/sparse_compute_unit/SubmapConvolution.h"

#include <memory>

#include "models/sparse_compute_unit/CountedRounds.h"
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

// Which data rows of a cell give an output of the unit's rectangle with kernel row a:
// ok[a * k + i] for data row cell + i (likewise for columns). Computed once per cell.
void CellValidity::compute(std::int32_t cell, std::uint32_t k, std::uint32_t pad, std::uint32_t stride,
                           std::uint32_t o0, std::uint32_t o1, std::vector<std::uint8_t>& ok) {
  ok.assign(std::size_t(k) * k, 0);
  for (std::uint32_t a = 0; a < k; ++a)
    for (std::uint32_t i = 0; i < k; ++i) {
      const ProductIndex at = product_index(cell + std::int32_t(i), 0, std::int32_t(a), 0, std::int32_t(k), 1);
      ok[a * k + i] = output_at(at.row, k, pad, stride, o0, o1) >= 0;
    }
}

CellValidity::CellValidity(const SubmapWork& work, std::uint32_t cy, std::uint32_t cx) {
  const ConvShape& g = *work.shape;
  const UnitRegion& r = work.region;
  cell_row = std::int32_t(r.row0 + cy * work.cells->cell_h());
  cell_col = std::int32_t(r.col0 + cx * work.cells->cell_w());
  compute(cell_row, g.kh, g.pad_top, g.sh, r.oy0, r.oy1, rows);
  compute(cell_col, g.kw, g.pad_left, g.sw, r.ox0, r.ox1, cols);
}

void window_pairs(const SubmapWork& work, std::uint32_t cy, std::uint32_t cx, std::uint32_t co,
                  std::vector<OperandPair>& pairs) {
  window_pairs(work, CellValidity(work, cy, cx), cy, cx, co, pairs);
}

void window_pairs(const SubmapWork& work, const CellValidity& cell, std::uint32_t cy, std::uint32_t cx,
                  std::uint32_t co, std::vector<OperandPair>& pairs) {
  const ConvShape& g = *work.shape;
  const std::int32_t var_w = std::int32_t(var_side(g.kw));
  pairs.clear();
  std::uint32_t weight_id = 0;
  for (std::uint32_t ci = 0; ci < g.ci; ++ci) {
    const NonZero* d0 = work.cells->begin(cy, cx, ci);
    const NonZero* d1 = work.cells->end(cy, cx, ci);
    if (d0 == d1) continue;
    for (const NonZero* w = work.kernel->begin(co, ci); w != work.kernel->end(co, ci); ++w, ++weight_id) {
      const std::uint8_t* row_ok = &cell.rows[std::size_t(w->row) * g.kh];
      const std::uint8_t* col_ok = &cell.cols[std::size_t(w->col) * g.kw];
      // §2.5 relative to the cell: VAR row = data row in the cell + (kh - 1 - weight row).
      const std::int32_t dr = std::int32_t(g.kh - 1 - w->row) - cell.cell_row;
      const std::int32_t dc = std::int32_t(g.kw - 1 - w->col) - cell.cell_col;
      for (const NonZero* d = d0; d != d1; ++d) {
        const std::int32_t i = d->row - cell.cell_row, j = d->col - cell.cell_col;
        if (!row_ok[i] || !col_ok[j]) continue;
        pairs.push_back({d->value, w->value, std::uint32_t((d->row + dr) * var_w + (d->col + dc)), weight_id});
      }
    }
  }
}

SubmapStats convolve_submap(const ComputeUnitShape& unit, const SubmapWork& work) {
  return counted_rounds_apply(work) ? convolve_submap_counted(unit, work) : convolve_submap_exact(unit, work);
}

SubmapStats convolve_submap_exact(const ComputeUnitShape& unit, const SubmapWork& work) {
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
  std::unique_ptr<VariableAccumulator> var;  // functional runs only
  if (functional) {
    buffer.assign(std::size_t(buf_h) * buf_w, 0);
    var = std::make_unique<VariableAccumulator>(unit.min_ports, var_side(g.kh), var_side(g.kw));
  }
  std::vector<OperandPair> pairs;
  const std::uint32_t out_w = r.ox1 - r.ox0;
  std::vector<CellValidity> validity;
  for (std::uint32_t cy = 0; cy < work.cells->cells_y(); ++cy)
    for (std::uint32_t cx = 0; cx < work.cells->cells_x(); ++cx) validity.emplace_back(work, cy, cx);
  for (std::uint32_t co = 0; co < g.co; ++co) {
    for (std::uint32_t cy = 0; cy < work.cells->cells_y(); ++cy)
      for (std::uint32_t cx = 0; cx < work.cells->cells_x(); ++cx) {
        if (work.cells->cell_nonzeros(cy, cx) == 0) continue;
        window_pairs(work, validity[std::size_t(cy) * work.cells->cells_x() + cx], cy, cx, co, pairs);
        if (pairs.empty()) continue;
        ++stats.windows;
        if (!functional) {
          multipliers.issue(pairs, adder_path, [](const RoundView&) {});
          continue;
        }
        var->load(buffer, buf_w, buf_h, cy * g.kh, cx * g.kw);
        multipliers.issue(pairs, adder_path, [&var](const RoundView& round) { var->accumulate(round); });
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
