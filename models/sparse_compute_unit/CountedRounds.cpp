#include "models/sparse_compute_unit/CountedRounds.h"

#include <algorithm>

#include "models/sparse_compute_unit/LocationArbiter.h"
#include "models/sparse_compute_unit/ProductIndex.h"

namespace npusim {

namespace {

std::uint32_t var_locations(const ConvShape& g) { return var_side(g.kh) * var_side(g.kw); }

// Unique weights a round may hold (MultiplierArray's cap): 1 for unit 1300, 0 = no cap.
std::uint32_t weight_cap(const ComputeUnitShape& unit) {
  return unit.kind == SparseUnitKind::Unit1300 ? 1 : unit.max_weights;
}

// Counts `count` rounds of `fill` multipliers, `reissued` of them FIFO products.
void count_rounds(MultiplierStats& s, std::uint64_t count, std::uint32_t fill, std::uint32_t reissued) {
  s.rounds += count;
  s.round_fill[fill] += count;
  s.products += count * (fill - reissued);
  s.reissued += count * reissued;
}

// n products, at most `per_round` to a round and no FIFO: n / per_round full rounds and one
// partial round for the rest.
void count_packed(MultiplierStats& s, std::uint64_t n, std::uint32_t per_round) {
  count_rounds(s, n / per_round, per_round, 0);
  if (n % per_round != 0) count_rounds(s, 1, std::uint32_t(n % per_round), 0);
}

// One weight's products still to issue in a window: their VAR locations, lowest first.
template <class Mask>
struct WeightRun {
  Mask left;
  std::uint32_t n;
};

// The multipliers, write arbiter and FIFO of one unit (MultiplierArray's rounds), fed each
// window as weight runs instead of operand pairs.
template <class Mask>
class CountedMultipliers {
 public:
  explicit CountedMultipliers(const ComputeUnitShape& unit)
      : p_(unit.multipliers),
        cap_(weight_cap(unit)),
        arbiter_(unit.kind == SparseUnitKind::Unit1500 && unit.adder_merge) {
    stats_.round_fill.assign(std::size_t(p_) + 1, 0);
  }

  bool one_weight_per_round() const { return cap_ == 1; }
  // One weight per round: its n products take n / p full rounds and a partial one, alone.
  void issue_alone(std::uint32_t n) {
    count_packed(stats_, n, p_);
    ++stats_.iterations;
  }
  // A window's runs in issue order; its FIFO drains before the next window.
  void issue(std::vector<WeightRun<Mask>>& runs) {
    std::size_t pos = 0;
    fifo_.clear();
    stats_.iterations += runs.size();
    while (pos < runs.size() || !fifo_.empty()) {
      if (fifo_.empty() && runs[pos].n >= p_) {
        full_rounds(runs[pos]);
        pos += runs[pos].n == 0;
      } else {
        mixed_round(runs, pos);
      }
    }
  }
  const MultiplierStats& stats() const { return stats_; }
  const ArbiterStats& arbiter_stats() const { return arbiter_.stats(); }

 private:
  // From an empty FIFO, rounds of p products of one weight: distinct locations, all pass.
  void full_rounds(WeightRun<Mask>& r) {
    const std::uint32_t rounds = r.n / p_;
    count_rounds(stats_, rounds, p_, 0);
    r.left ^= mask_first(r.left, rounds * p_, r.n);
    r.n -= rounds * p_;
  }

  // A round of FIFO products and up to cap weights' products. Without FIFO products and
  // without a shared location every product passes; otherwise the arbiter decides.
  void mixed_round(std::vector<WeightRun<Mask>>& runs, std::size_t& pos) {
    const std::uint32_t reissued = std::uint32_t(fifo_.size());
    std::uint32_t room = p_ - reissued, weights = 0;
    Mask taken{};
    bool clash = false;
    segments_.clear();
    while (room > 0 && pos < runs.size() && (cap_ == 0 || weights < cap_)) {
      ++weights;
      WeightRun<Mask>& r = runs[pos];
      const std::uint32_t t = std::min(r.n, room);
      const Mask s = t == r.n ? r.left : mask_first(r.left, t, r.n);
      clash = clash || mask_any(taken & s);
      taken |= s;
      segments_.push_back(s);
      r.left ^= s;
      r.n -= t;
      room -= t;
      pos += r.n == 0;
    }
    count_rounds(stats_, 1, p_ - room, reissued);
    if (reissued != 0 || clash) arbiter_.arbitrate(fifo_, segments_);
  }

  std::uint32_t p_, cap_;
  LocationArbiter<Mask> arbiter_;
  std::vector<Mask> segments_;
  std::vector<std::uint32_t> fifo_;  // locations of the products waiting in FIFO 2000
  MultiplierStats stats_;
};

// Per cell of the sub-map: each input channel's data positions and, per kernel tap, the
// positions whose product lands on an output of the unit (CellValidity), both as masks
// laid out on the VAR's rows (position (i, j) of the cell = location i * (2kw-1) + j).
template <class Mask>
class CellMasks {
 public:
  explicit CellMasks(const SubmapWork& work)
      : taps_(work.shape->kh * work.shape->kw), channels_(work.shape->ci), var_w_(var_side(work.shape->kw)) {
    const CellGrid& cells = *work.cells;
    data_.resize(std::size_t(cells.cells_y()) * cells.cells_x() * channels_);
    valid_.resize(std::size_t(cells.cells_y()) * cells.cells_x() * taps_);
    for (std::uint32_t cy = 0; cy < cells.cells_y(); ++cy)
      for (std::uint32_t cx = 0; cx < cells.cells_x(); ++cx) fill_cell(work, cy, cx);
  }
  const Mask* data(std::size_t cell) const { return &data_[cell * channels_]; }
  const Mask* valid(std::size_t cell) const { return &valid_[cell * taps_]; }

 private:
  void fill_cell(const SubmapWork& work, std::uint32_t cy, std::uint32_t cx) {
    const ConvShape& g = *work.shape;
    const CellValidity ok(work, cy, cx);
    const std::size_t cell = std::size_t(cy) * work.cells->cells_x() + cx;
    for (std::uint32_t ci = 0; ci < channels_; ++ci)
      for (const NonZero* d = work.cells->begin(cy, cx, ci); d != work.cells->end(cy, cx, ci); ++d)
        mask_set(data_[cell * channels_ + ci], (d->row - ok.cell_row) * var_w_ + (d->col - ok.cell_col));
    for (std::uint32_t a = 0; a < g.kh; ++a)
      for (std::uint32_t b = 0; b < g.kw; ++b)
        for (std::uint32_t i = 0; i < g.kh; ++i)
          for (std::uint32_t j = 0; j < g.kw; ++j)
            if (ok.rows[a * g.kh + i] && ok.cols[b * g.kw + j])
              mask_set(valid_[cell * taps_ + a * g.kw + b], i * var_w_ + j);
  }

  std::uint32_t taps_, channels_, var_w_;
  std::vector<Mask> data_, valid_;
};

// Each weight of window (cell, co) with products, in issue order (input channel, then tap
// row-major): visit(its data positions that give an output, its §2.5 shift in the VAR).
template <class Mask, class Visit>
void for_each_weight(const SubmapWork& work, const CellMasks<Mask>& masks, std::size_t cell, std::uint32_t co,
                     Visit&& visit) {
  const ConvShape& g = *work.shape;
  const std::uint32_t var_w = var_side(g.kw);
  const Mask* data = masks.data(cell);
  const Mask* valid = masks.valid(cell);
  for (std::uint32_t ci = 0; ci < g.ci; ++ci) {
    if (!mask_any(data[ci])) continue;
    for (const NonZero* w = work.kernel->begin(co, ci); w != work.kernel->end(co, ci); ++w) {
      const Mask m = data[ci] & valid[w->row * g.kw + w->col];
      if (mask_any(m)) visit(m, (g.kh - 1 - w->row) * var_w + (g.kw - 1 - w->col));
    }
  }
}

// Windows of a kernel larger than 1x1: per output channel, per cell with non-zeros.
template <class Mask>
void count_windows(const ComputeUnitShape& unit, const SubmapWork& work, SubmapStats& s) {
  const ConvShape& g = *work.shape;
  const CellGrid& cells = *work.cells;
  const CellMasks<Mask> masks(work);
  CountedMultipliers<Mask> multipliers(unit);
  const bool alone = multipliers.one_weight_per_round();
  std::vector<WeightRun<Mask>> runs;
  for (std::uint32_t co = 0; co < g.co; ++co)
    for (std::uint32_t cy = 0; cy < cells.cells_y(); ++cy)
      for (std::uint32_t cx = 0; cx < cells.cells_x(); ++cx) {
        if (cells.cell_nonzeros(cy, cx) == 0) continue;
        runs.clear();
        std::uint32_t weights = 0;
        for_each_weight(work, masks, std::size_t(cy) * cells.cells_x() + cx, co, [&](const Mask& m, std::uint32_t shift) {
          if (alone)
            multipliers.issue_alone(mask_count(m));
          else
            runs.push_back({mask_shifted(m, shift), mask_count(m)});
          ++weights;
        });
        if (weights == 0) continue;
        ++s.windows;
        if (!alone) multipliers.issue(runs);
      }
  s.multipliers = multipliers.stats();
  s.arbiter = multipliers.arbiter_stats();
}

// Input channels as a bit set, 64 to a word.
using ChannelSet = std::vector<std::uint64_t>;
void set_channel(ChannelSet& set, std::size_t first_word, std::uint32_t ci) {
  set[first_word + ci / 64] |= std::uint64_t(1) << (ci % 64);
}

// The input channels each output channel has a non-zero weight for (1x1: one tap each).
ChannelSet weight_channels(const SubmapWork& work, std::uint32_t words) {
  const ConvShape& g = *work.shape;
  ChannelSet set(std::size_t(g.co) * words, 0);
  for (std::uint32_t co = 0; co < g.co; ++co)
    for (std::uint32_t ci = 0; ci < g.ci; ++ci)
      if (work.kernel->begin(co, ci) != work.kernel->end(co, ci)) set_channel(set, std::size_t(co) * words, ci);
  return set;
}

// 1x1 kernels and fc (§2.13): a cell is one input position, every weight has at most one
// product, so a round takes min(p, cap) products and the adder sums it into one value.
void count_adder_windows(const ComputeUnitShape& unit, const SubmapWork& work, SubmapStats& s) {
  const ConvShape& g = *work.shape;
  const CellGrid& cells = *work.cells;
  const std::uint32_t words = (g.ci + 63) / 64, cap = weight_cap(unit);
  const std::uint32_t per_round = cap == 0 ? unit.multipliers : std::min(cap, unit.multipliers);
  const ChannelSet weights = weight_channels(work, words);
  ChannelSet data(words);
  s.multipliers.round_fill.assign(std::size_t(unit.multipliers) + 1, 0);
  for (std::uint32_t cy = 0; cy < cells.cells_y(); ++cy)
    for (std::uint32_t cx = 0; cx < cells.cells_x(); ++cx) {
      if (cells.cell_nonzeros(cy, cx) == 0) continue;
      const CellValidity ok(work, cy, cx);
      if (!ok.rows[0] || !ok.cols[0]) continue;
      std::fill(data.begin(), data.end(), 0);
      for (std::uint32_t ci = 0; ci < g.ci; ++ci)
        if (cells.begin(cy, cx, ci) != cells.end(cy, cx, ci)) set_channel(data, 0, ci);
      for (std::uint32_t co = 0; co < g.co; ++co) {
        std::uint64_t n = 0;
        for (std::uint32_t k = 0; k < words; ++k) n += mask_count(data[k] & weights[std::size_t(co) * words + k]);
        if (n == 0) continue;
        ++s.windows;
        const std::uint64_t rounds_before = s.multipliers.rounds;
        count_packed(s.multipliers, n, per_round);
        s.multipliers.iterations += n;
        s.multipliers.adder_sums += n - (s.multipliers.rounds - rounds_before);
      }
    }
}

}  // namespace

bool counted_rounds_apply(const SubmapWork& work) {
  return work.sums == nullptr && var_locations(*work.shape) <= 64 * WideMask::kWords;
}

SubmapStats convolve_submap_counted(const ComputeUnitShape& unit, const SubmapWork& work) {
  const ConvShape& g = *work.shape;
  SubmapStats s;
  s.nonzeros = work.cells->nonzeros();
  if (g.kh == 1 && g.kw == 1)
    count_adder_windows(unit, work, s);
  else if (var_locations(g) <= 64)
    count_windows<std::uint64_t>(unit, work, s);
  else
    count_windows<WideMask>(unit, work, s);
  return s;
}

}  // namespace npusim
