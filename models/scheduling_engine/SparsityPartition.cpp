#include "models/scheduling_engine/SparsityPartition.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace npusim {

namespace {

// The grid: rows x cols = m with the most square shape that the output map allows.
std::pair<std::uint32_t, std::uint32_t> grid_for(std::uint32_t m, std::uint32_t ho, std::uint32_t wo) {
  std::uint32_t best_r = 1;
  for (std::uint32_t r = 1; r * r <= m; ++r)
    if (m % r == 0) best_r = r;
  std::uint32_t r = best_r, c = m / best_r;
  if (ho > wo) std::swap(r, c);  // more bands along the longer side
  return {std::min(r, ho), std::min(c, wo)};
}

// Splits n slots into `parts` contiguous ranges; returns the parts+1 cut positions.
std::vector<std::uint32_t> equal_cuts(std::uint32_t n, std::uint32_t parts) {
  std::vector<std::uint32_t> cuts(parts + 1);
  for (std::uint32_t i = 0; i <= parts; ++i) cuts[i] = std::uint32_t(std::uint64_t(n) * i / parts);
  return cuts;
}

// Moves boundaries one slot at a time from the fuller neighbour to the emptier one while
// some neighbour pair differs by more than the threshold and a move narrows it, or keeps
// it equal without overshooting: an all-zero strip (plateau) is crossed, not stopped at.
// `value(lo, hi)` is a range's metric value.
template <class Value>
std::uint32_t balance(std::vector<std::uint32_t>& cuts, double threshold, Value&& value) {
  std::uint32_t moves = 0;
  const std::size_t parts = cuts.size() - 1;
  const std::uint32_t limit = 4 * (cuts.back() + 1);
  for (std::uint32_t step = 0; step < limit && parts > 1; ++step) {
    double worst = threshold;
    std::size_t at = 0;
    int dir = 0;
    for (std::size_t b = 1; b < parts; ++b) {
      const double left = value(cuts[b - 1], cuts[b]), right = value(cuts[b], cuts[b + 1]);
      const double diff = std::abs(left - right);
      if (diff <= worst) continue;
      const int d = left > right ? -1 : 1;  // the fuller side gives up its edge slot
      const std::uint32_t moved = cuts[b] + d;
      if (moved <= cuts[b - 1] || moved >= cuts[b + 1]) continue;
      const double signed_after = value(cuts[b - 1], moved) - value(moved, cuts[b + 1]);
      const double after = std::abs(signed_after);
      const bool crosses_plateau = after == diff && (signed_after > 0) == (left > right);
      if (after > diff || (after == diff && !crosses_plateau)) continue;
      worst = diff;
      at = b;
      dir = d;
    }
    if (dir == 0) break;
    cuts[at] += dir;
    ++moves;
  }
  return moves;
}

// Non-zeros per input position, as a 2-D prefix sum: any window's count in O(1).
class NonzeroPrefix {
 public:
  NonzeroPrefix(const ConvShape& g, const CompressedMap& map)
      : width_(g.wi + 1), pre_(std::size_t(g.hi + 1) * width_, 0) {
    for (std::uint32_t idx : map.indices) ++at(idx / (g.wi * g.ci) + 1, (idx / g.ci) % g.wi + 1);
    for (std::uint32_t y = 1; y <= g.hi; ++y)
      for (std::uint32_t x = 1; x <= g.wi; ++x) at(y, x) += at(y - 1, x) + at(y, x - 1) - at(y - 1, x - 1);
  }
  std::uint64_t window(const UnitRegion& r) const {
    if (r.rows == 0 || r.cols == 0) return 0;
    return get(r.row0 + r.rows, r.col0 + r.cols) - get(r.row0, r.col0 + r.cols) - get(r.row0 + r.rows, r.col0) +
           get(r.row0, r.col0);
  }

 private:
  std::size_t width_;
  std::vector<std::uint64_t> pre_;
  std::uint64_t& at(std::uint32_t y, std::uint32_t x) { return pre_[y * width_ + x]; }
  std::uint64_t get(std::uint32_t y, std::uint32_t x) const { return pre_[y * width_ + x]; }
};

}  // namespace

SparsityPartition partition_by_sparsity(const ConvShape& g, const CompressedMap& map, const PartitionRequest& req) {
  const std::uint32_t ho = g.ho(), wo = g.wo();
  SparsityPartition p;
  std::tie(p.grid_rows, p.grid_cols) = grid_for(req.units, ho, wo);
  const NonzeroPrefix prefix(g, map);
  auto window_nnz = [&](const UnitRegion& r) { return prefix.window(r); };
  auto metric = [&](const UnitRegion& r) {
    const double nnz = double(window_nnz(r));
    if (req.metric == BalanceMetric::NonzeroCount) return nnz;
    const double cells = double(r.rows) * r.cols * g.ci;
    return cells > 0 ? nnz / cells : 0.0;
  };
  // Counts are compared relative to their mean share, percentages as they are.
  const double total = double(window_nnz(unit_region(g, 0, ho, 0, wo)));
  auto scaled = [&](double v, std::uint32_t parts) {
    return req.metric == BalanceMetric::NonzeroCount ? (total > 0 ? v * parts / total : 0.0) : v;
  };
  const bool balanced = req.policy == PartitionPolicy::Balanced;
  // Two levels of cuts add their spreads: each gets half the budget when both are used.
  const double level_threshold = p.grid_rows > 1 && p.grid_cols > 1 ? req.threshold / 2 : req.threshold;
  std::vector<std::uint32_t> row_cuts = equal_cuts(ho, p.grid_rows);
  if (balanced)
    p.moves += balance(row_cuts, level_threshold, [&](std::uint32_t a, std::uint32_t b) {
      return scaled(metric(unit_region(g, a, b, 0, wo)), p.grid_rows);
    });
  for (std::uint32_t band = 0; band < p.grid_rows; ++band) {
    const std::uint32_t oy0 = row_cuts[band], oy1 = row_cuts[band + 1];
    std::vector<std::uint32_t> col_cuts = equal_cuts(wo, p.grid_cols);
    if (balanced)
      p.moves += balance(col_cuts, level_threshold, [&](std::uint32_t a, std::uint32_t b) {
        return scaled(metric(unit_region(g, oy0, oy1, a, b)), p.grid_rows * p.grid_cols);
      });
    for (std::uint32_t c = 0; c < p.grid_cols; ++c) {
      p.regions.push_back(unit_region(g, oy0, oy1, col_cuts[c], col_cuts[c + 1]));
      p.nonzeros.push_back(window_nnz(p.regions.back()));
    }
  }
  // The units a grid smaller than m leaves idle.
  while (p.regions.size() < req.units) {
    p.regions.push_back(UnitRegion{});
    p.nonzeros.push_back(0);
  }
  double lo = 1e300, hi = -1e300;
  for (const UnitRegion& r : p.regions) {
    if (r.empty()) continue;
    const double v = scaled(metric(r), std::uint32_t(p.grid_rows * p.grid_cols));
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  p.imbalance = hi >= lo ? hi - lo : 0;
  return p;
}

}  // namespace npusim
