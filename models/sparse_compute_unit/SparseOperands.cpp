#include "models/sparse_compute_unit/SparseOperands.h"

#include <algorithm>
#include <stdexcept>

namespace npusim {

CompressedMap compress_map(const std::int8_t* dense, std::uint32_t h, std::uint32_t w, std::uint32_t c) {
  CompressedMap m{h, w, c, {}, {}};
  const std::uint64_t n = std::uint64_t(h) * w * c;
  for (std::uint64_t i = 0; i < n; ++i)
    if (dense[i] != 0) {
      m.values.push_back(dense[i]);
      m.indices.push_back(std::uint32_t(i));
    }
  return m;
}

namespace {
// Input rows [first, last] that outputs [o0, o1) read along one axis, clipped to the map.
std::pair<std::uint32_t, std::uint32_t> window_axis(std::uint32_t o0, std::uint32_t o1, std::uint32_t stride,
                                                    std::uint32_t pad, std::uint32_t k, std::uint32_t in) {
  const std::int64_t first = std::int64_t(o0) * stride - pad;
  const std::int64_t last = std::int64_t(o1 - 1) * stride - pad + k - 1;
  const std::int64_t lo = std::max<std::int64_t>(first, 0), hi = std::min<std::int64_t>(last, in - 1);
  return {std::uint32_t(lo), hi >= lo ? std::uint32_t(hi - lo + 1) : 0};
}
}  // namespace

UnitRegion unit_region(const ConvShape& g, std::uint32_t oy0, std::uint32_t oy1, std::uint32_t ox0,
                       std::uint32_t ox1) {
  UnitRegion r{oy0, oy1, ox0, ox1, 0, 0, 0, 0};
  if (r.empty()) return r;
  std::tie(r.row0, r.rows) = window_axis(oy0, oy1, g.sh, g.pad_top, g.kh, g.hi);
  std::tie(r.col0, r.cols) = window_axis(ox0, ox1, g.sw, g.pad_left, g.kw, g.wi);
  return r;
}

CellGrid::CellGrid(const CompressedMap& map, const UnitRegion& region, std::uint32_t cell_h, std::uint32_t cell_w)
    : cell_h_(cell_h),
      cell_w_(cell_w),
      cells_y_((region.rows + cell_h - 1) / cell_h),
      cells_x_((region.cols + cell_w - 1) / cell_w),
      channels_(map.c) {
  offsets_.assign(std::size_t(cells_y_) * cells_x_ * channels_ + 1, 0);
  const std::uint64_t row_elems = std::uint64_t(map.w) * map.c;
  // The window's rows are one contiguous run of the sorted index list each.
  auto for_each_in_window = [&](auto&& visit) {
    for (std::uint32_t y = region.row0; y < region.row0 + region.rows; ++y) {
      const std::uint64_t from = y * row_elems + std::uint64_t(region.col0) * map.c;
      const std::uint64_t to = from + std::uint64_t(region.cols) * map.c;
      auto it = std::lower_bound(map.indices.begin(), map.indices.end(), from);
      for (; it != map.indices.end() && *it < to; ++it) {
        const std::uint64_t rest = *it - y * row_elems;
        const auto x = std::uint32_t(rest / map.c), ch = std::uint32_t(rest % map.c);
        visit(y, x, ch, std::size_t(it - map.indices.begin()));
      }
    }
  };
  auto slot_of = [&](std::uint32_t y, std::uint32_t x, std::uint32_t ch) {
    return slot((y - region.row0) / cell_h_, (x - region.col0) / cell_w_, ch);
  };
  for_each_in_window([&](std::uint32_t y, std::uint32_t x, std::uint32_t ch, std::size_t) { ++offsets_[slot_of(y, x, ch) + 1]; });
  for (std::size_t i = 1; i < offsets_.size(); ++i) offsets_[i] += offsets_[i - 1];
  entries_.resize(offsets_.back());
  std::vector<std::uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
  for_each_in_window([&](std::uint32_t y, std::uint32_t x, std::uint32_t ch, std::size_t i) {
    entries_[fill[slot_of(y, x, ch)]++] = {map.values[i], std::uint16_t(y), std::uint16_t(x)};
  });
}

std::uint64_t CellGrid::cell_nonzeros(std::uint32_t cy, std::uint32_t cx) const {
  return offsets_[slot(cy, cx, channels_ - 1) + 1] - offsets_[slot(cy, cx, 0)];
}

KernelNonzeros::KernelNonzeros(std::uint32_t co, std::uint32_t kh, std::uint32_t kw, std::uint32_t ci,
                               const std::vector<std::int32_t>& values, const std::vector<std::uint32_t>& indices)
    : co_(co),
      kh_(kh),
      kw_(kw),
      ci_(ci),
      offsets_(std::size_t(co) * ci + 1, 0),
      slot_words_((ci * kh * kw + 63) / 64),
      slot_sets_(std::size_t(co) * slot_words_, 0) {
  // [co kh kw ci] order visits taps row-major but interleaves channels: bucket by (co, ci).
  const std::uint64_t per_co = std::uint64_t(kh) * kw * ci;
  auto slot_of = [&](std::uint32_t idx) {
    return std::size_t(idx / per_co) * ci + idx % ci;
  };
  for (std::uint32_t idx : indices) ++offsets_[slot_of(idx) + 1];
  for (std::size_t i = 1; i < offsets_.size(); ++i) offsets_[i] += offsets_[i - 1];
  taps_.resize(offsets_.back());
  std::vector<std::uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const std::uint64_t tap = (indices[i] % per_co) / ci;
    taps_[fill[slot_of(indices[i])]++] = {values[i], std::uint16_t(tap / kw), std::uint16_t(tap % kw)};
    mark_slot(std::uint32_t(indices[i] / per_co), indices[i] % ci, std::uint32_t(tap));
  }
}

KernelNonzeros::KernelNonzeros(std::uint32_t kh, std::uint32_t kw, std::vector<NonZero> taps_in_order)
    : co_(1),
      kh_(kh),
      kw_(kw),
      ci_(1),
      offsets_{0, std::uint32_t(taps_in_order.size())},
      taps_(std::move(taps_in_order)),
      slot_words_((kh * kw + 63) / 64),
      slot_sets_(slot_words_, 0) {
  for (const NonZero& t : taps_) {
    if (t.row >= kh || t.col >= kw) throw std::invalid_argument("a kernel tap lies outside the kernel");
    mark_slot(0, 0, t.row * kw + t.col);
  }
}

}  // namespace npusim
