#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/sparse_compute_unit/LocationArbiter.h"
#include "models/sparse_compute_unit/SubmapConvolution.h"

namespace npusim {

// The counted timing path's multipliers (CountedRounds.h): MultiplierArray's rounds formed
// from weight runs (location masks and counts) instead of operand pairs.

// Unique weights a round may hold (MultiplierArray's cap): 1 for unit 1300, 0 = no cap.
inline std::uint32_t weight_cap(const ComputeUnitShape& unit) {
  return unit.kind == SparseUnitKind::Unit1300 ? 1 : unit.max_weights;
}

// Counts `count` rounds of `fill` multipliers, `reissued` of them FIFO products.
inline void count_rounds(MultiplierStats& s, std::uint64_t count, std::uint32_t fill, std::uint32_t reissued) {
  s.rounds += count;
  s.round_fill[fill] += count;
  s.products += count * (fill - reissued);
  s.reissued += count * reissued;
}

// n products, at most `per_round` to a round and no FIFO: n / per_round full rounds and one
// partial round for the rest.
inline void count_packed(MultiplierStats& s, std::uint64_t n, std::uint32_t per_round) {
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

  // A window's runs in issue order; its FIFO drains before the next window.
  void issue(std::vector<WeightRun<Mask>>& runs) {
    stats_.iterations += runs.size();
    if (cap_ == 1) {  // one weight per round: n / p full rounds and a partial one, alone
      for (const WeightRun<Mask>& r : runs) count_packed(stats_, r.n, p_);
      return;
    }
    std::size_t pos = 0;
    fifo_.clear();
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

  // A round of FIFO products and up to cap weights' products. When no two of its products
  // share a location every one passes and the FIFO empties; otherwise the arbiter decides.
  void mixed_round(std::vector<WeightRun<Mask>>& runs, std::size_t& pos) {
    const std::uint32_t reissued = std::uint32_t(fifo_.size());
    std::uint32_t room = p_ - reissued, weights = 0;
    Mask taken{};
    bool clash = false;
    for (std::uint32_t at : fifo_) {
      clash = clash || mask_has(taken, at);
      mask_set(taken, at);
    }
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
    if (clash)
      arbiter_.arbitrate(fifo_, segments_);
    else
      fifo_.clear();
  }

  std::uint32_t p_, cap_;
  LocationArbiter<Mask> arbiter_;
  std::vector<Mask> segments_;
  std::vector<std::uint32_t> fifo_;  // locations of the products waiting in FIFO 2000
  MultiplierStats stats_;
};

}  // namespace npusim
