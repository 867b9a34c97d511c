#include "models/sparse_compute_unit/CountedRounds.h"

#include <algorithm>
#include <unordered_map>

#include "models/sparse_compute_unit/CountedMultipliers.h"
#include "models/sparse_compute_unit/ProductIndex.h"

namespace npusim {

namespace {

std::uint32_t var_locations(const ConvShape& g) { return var_side(g.kh) * var_side(g.kw); }

// Weight slots (input channel * kh*kw + tap, the issue order) as a bit set, 64 to a word,
// like KernelNonzeros::slot_set.
using SlotSet = std::vector<std::uint64_t>;
void set_slot(SlotSet& set, std::uint32_t slot) { set[slot / 64] |= std::uint64_t(1) << (slot % 64); }

// One cell of the sub-map as its windows see it. What decides every window of the cell
// is each input channel's data positions and, per kernel tap, the positions whose product
// lands on an output of the unit (CellValidity); both as masks laid out on the VAR's rows
// (cell position (i, j) = location i * (2kw-1) + j). runs() turns them into the run each
// (input channel, tap) slot would issue: the products' locations at the tap's §2.5 shift.
template <class Mask>
class CellRuns {
 public:
  explicit CellRuns(const ConvShape& g)
      : g_(g),
        taps_(g.kh * g.kw),
        var_w_(var_side(g.kw)),
        data_(g.ci),
        valid_(taps_),
        runs_(std::size_t(g.ci) * taps_),
        issuing_((g.ci * g.kh * g.kw + 63) / 64) {}

  void load(const SubmapWork& work, std::uint32_t cy, std::uint32_t cx) {
    const CellValidity ok(work, cy, cx);
    std::fill(data_.begin(), data_.end(), Mask{});
    std::fill(valid_.begin(), valid_.end(), Mask{});
    for (std::uint32_t ci = 0; ci < g_.ci; ++ci)
      for (const NonZero* d = work.cells->begin(cy, cx, ci); d != work.cells->end(cy, cx, ci); ++d)
        mask_set(data_[ci], (d->row - ok.cell_row) * var_w_ + (d->col - ok.cell_col));
    for (std::uint32_t t = 0; t < taps_; ++t)
      for (std::uint32_t i = 0; i < g_.kh; ++i)
        for (std::uint32_t j = 0; j < g_.kw; ++j)
          if (ok.rows[t / g_.kw * g_.kh + i] && ok.cols[t % g_.kw * g_.kw + j]) mask_set(valid_[t], i * var_w_ + j);
  }
  // The masks as words: cells with equal keys have equal windows.
  void key(std::vector<std::uint64_t>& words) const {
    words.clear();
    for (const Mask& m : data_) append_words(words, m);
    for (const Mask& m : valid_) append_words(words, m);
  }
  // Per slot ci * kh*kw + tap: the run that weight would issue in this cell; and the set
  // of slots whose run has products.
  const std::vector<WeightRun<Mask>>& runs() {
    std::fill(issuing_.begin(), issuing_.end(), 0);
    for (std::uint32_t ci = 0; ci < g_.ci; ++ci)
      for (std::uint32_t t = 0; t < taps_; ++t) {
        const Mask m = data_[ci] & valid_[t];
        if (!mask_any(m)) continue;
        const std::uint32_t shift = (g_.kh - 1 - t / g_.kw) * var_w_ + (g_.kw - 1 - t % g_.kw);
        runs_[std::size_t(ci) * taps_ + t] = {mask_shifted(m, shift), mask_count(m)};
        set_slot(issuing_, ci * taps_ + t);
      }
    return runs_;
  }
  const SlotSet& issuing() const { return issuing_; }

 private:
  const ConvShape& g_;
  std::uint32_t taps_, var_w_;
  std::vector<Mask> data_, valid_;
  std::vector<WeightRun<Mask>> runs_;
  SlotSet issuing_;
};

// Every window of one cell: per output channel, the runs of the slots that both have a
// non-zero weight and issue products here, in slot order.
template <class Mask>
SubmapStats count_cell(const ComputeUnitShape& unit, const KernelNonzeros& kernel, CellRuns<Mask>& cell,
                       std::vector<WeightRun<Mask>>& runs) {
  const std::vector<WeightRun<Mask>>& slots = cell.runs();
  const SlotSet& issuing = cell.issuing();
  const std::size_t words = issuing.size();
  CountedMultipliers<Mask> multipliers(unit);
  SubmapStats s;
  for (std::uint32_t co = 0; co < kernel.co(); ++co) {
    runs.clear();
    const std::uint64_t* weights = kernel.slot_set(co);
    for (std::size_t k = 0; k < words; ++k)
      for_each_location(issuing[k] & weights[k], std::uint32_t(64 * k),
                        [&](std::uint32_t slot) { runs.push_back(slots[slot]); });
    if (runs.empty()) continue;
    ++s.windows;
    multipliers.issue(runs);
  }
  s.multipliers = multipliers.stats();
  s.arbiter = multipliers.arbiter_stats();
  return s;
}

void add_cell(SubmapStats& total, const SubmapStats& cell) {
  total.multipliers.add(cell.multipliers);
  total.arbiter.collisions += cell.arbiter.collisions;
  total.arbiter.adjacent_merges += cell.arbiter.adjacent_merges;
  total.arbiter.fifo_max = std::max(total.arbiter.fifo_max, cell.arbiter.fifo_max);
  total.windows += cell.windows;
}

struct WordsHash {
  std::size_t operator()(const std::vector<std::uint64_t>& words) const {
    std::uint64_t h = 1469598103934665603ull;
    for (std::uint64_t w : words) h = (h ^ w) * 1099511628211ull;
    return std::size_t(h ^ (h >> 29));
  }
};

// Windows of a kernel larger than 1x1, a cell at a time. A cell whose masks equal an
// earlier cell's has the same windows (dense maps repeat them), so its stats are reused.
template <class Mask>
void count_windows(const ComputeUnitShape& unit, const SubmapWork& work, SubmapStats& s) {
  const CellGrid& cells = *work.cells;
  CellRuns<Mask> cell(*work.shape);
  std::unordered_map<std::vector<std::uint64_t>, SubmapStats, WordsHash> seen;
  std::vector<std::uint64_t> key;
  std::vector<WeightRun<Mask>> runs;
  for (std::uint32_t cy = 0; cy < cells.cells_y(); ++cy)
    for (std::uint32_t cx = 0; cx < cells.cells_x(); ++cx) {
      if (cells.cell_nonzeros(cy, cx) == 0) continue;
      cell.load(work, cy, cx);
      cell.key(key);
      auto [at, added] = seen.try_emplace(key);
      if (added) at->second = count_cell(unit, *work.kernel, cell, runs);
      add_cell(s, at->second);
    }
}

// 1x1 kernels and fc (§2.13): a cell is one input position, every weight has at most one
// product, so a round takes min(p, cap) products and the adder sums it into one value.
void count_adder_windows(const ComputeUnitShape& unit, const SubmapWork& work, SubmapStats& s) {
  const ConvShape& g = *work.shape;
  const CellGrid& cells = *work.cells;
  const std::uint32_t words = work.kernel->slot_words(), cap = weight_cap(unit);
  const std::uint32_t per_round = cap == 0 ? unit.multipliers : std::min(cap, unit.multipliers);
  SlotSet data(words);
  for (std::uint32_t cy = 0; cy < cells.cells_y(); ++cy)
    for (std::uint32_t cx = 0; cx < cells.cells_x(); ++cx) {
      if (cells.cell_nonzeros(cy, cx) == 0) continue;
      const CellValidity ok(work, cy, cx);
      if (!ok.rows[0] || !ok.cols[0]) continue;
      std::fill(data.begin(), data.end(), 0);
      for (std::uint32_t ci = 0; ci < g.ci; ++ci)
        if (cells.begin(cy, cx, ci) != cells.end(cy, cx, ci)) set_slot(data, ci);
      for (std::uint32_t co = 0; co < g.co; ++co) {
        std::uint64_t n = 0;
        const std::uint64_t* weights = work.kernel->slot_set(co);  // 1x1: the slot is the input channel
        for (std::uint32_t k = 0; k < words; ++k) n += mask_count(data[k] & weights[k]);
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
  s.multipliers.round_fill.assign(std::size_t(unit.multipliers) + 1, 0);
  if (g.kh == 1 && g.kw == 1)
    count_adder_windows(unit, work, s);
  else if (var_locations(g) <= 64)
    count_windows<std::uint64_t>(unit, work, s);
  else
    count_windows<WideMask>(unit, work, s);
  return s;
}

}  // namespace npusim
