#include "models/compute_interconnect/NoOverlapPartition.h"

#include <algorithm>

namespace npusim {

namespace {

// The first input row (or column) owned by the sub-map whose outputs start at `o`: the
// row where output o's window starts, so neighbouring sub-maps split the input exactly
// where they split the output. The map's first and last edges own the padding side.
std::uint32_t owned_edge(std::uint32_t o, std::uint32_t outputs, std::uint32_t stride, std::uint32_t pad,
                         std::uint32_t inputs) {
  if (o == 0) return 0;
  if (o >= outputs) return inputs;
  const std::int64_t at = std::int64_t(o) * stride - pad;
  return std::uint32_t(std::clamp<std::int64_t>(at, 0, inputs));
}

// Outputs [first, end) whose window along one axis touches inputs [i0, i1).
std::pair<std::uint32_t, std::uint32_t> reach_axis(std::uint32_t i0, std::uint32_t i1, std::uint32_t k,
                                                   std::uint32_t stride, std::uint32_t pad, std::uint32_t outputs) {
  if (i1 <= i0) return {0, 0};
  // o*stride - pad + a lies in [i0, i1) for some tap a in [0, k).
  const std::int64_t low = std::int64_t(i0) + pad - (k - 1);
  const std::int64_t first = low <= 0 ? 0 : (low + stride - 1) / stride;
  const std::int64_t end = std::min<std::int64_t>((std::int64_t(i1) - 1 + pad) / stride + 1, outputs);
  if (end <= first) return {0, 0};
  return {std::uint32_t(first), std::uint32_t(end)};
}

}  // namespace

std::vector<UnitRegion> no_overlap_regions(const ConvShape& g, const std::vector<UnitRegion>& own) {
  std::vector<UnitRegion> out;
  out.reserve(own.size());
  for (const UnitRegion& o : own) {
    UnitRegion r;
    if (!o.empty()) {
      r.row0 = owned_edge(o.oy0, g.ho(), g.sh, g.pad_top, g.hi);
      r.rows = owned_edge(o.oy1, g.ho(), g.sh, g.pad_top, g.hi) - r.row0;
      r.col0 = owned_edge(o.ox0, g.wo(), g.sw, g.pad_left, g.wi);
      r.cols = owned_edge(o.ox1, g.wo(), g.sw, g.pad_left, g.wi) - r.col0;
      std::tie(r.oy0, r.oy1) = reach_axis(r.row0, r.row0 + r.rows, g.kh, g.sh, g.pad_top, g.ho());
      std::tie(r.ox0, r.ox1) = reach_axis(r.col0, r.col0 + r.cols, g.kw, g.sw, g.pad_left, g.wo());
    }
    if (r.empty()) r = UnitRegion{};  // owns no input that reaches an output
    out.push_back(r);
  }
  return out;
}

std::uint64_t border_outputs(const UnitRegion& reach, const UnitRegion& own) {
  const std::uint32_t y0 = std::max(reach.oy0, own.oy0), y1 = std::min(reach.oy1, own.oy1);
  const std::uint32_t x0 = std::max(reach.ox0, own.ox0), x1 = std::min(reach.ox1, own.ox1);
  return y1 > y0 && x1 > x0 ? std::uint64_t(y1 - y0) * (x1 - x0) : 0;
}

}  // namespace npusim
