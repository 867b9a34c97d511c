#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/sparse_compute_unit/WriteArbiter.h"

namespace npusim {

// One data value and one weight waiting for a multiplier, with where their product lands.
struct OperandPair {
  std::int32_t data = 0, weight = 0;
  std::uint32_t var_index = 0;
  std::uint32_t weight_id = 0;  // unique weight of the stream (a kernel tap of one input channel)
};

struct MultiplierStats {
  std::uint64_t rounds = 0;
  std::uint64_t products = 0;       // multiplications done: every one is a useful MAC
  std::uint64_t reissued = 0;       // multiplier slots given to FIFO products instead of new data
  std::uint64_t iterations = 0;     // unique weights issued (seed001: one iteration per weight)
  std::uint64_t adder_sums = 0;     // 1x1 / fc: products the adder 1360 folded into one sum
  std::vector<std::uint64_t> round_fill;  // [k]: rounds with k busy multipliers (FIFO products included)

  void add(const MultiplierStats& o) {
    rounds += o.rounds;
    products += o.products;
    reissued += o.reissued;
    iterations += o.iterations;
    adder_sums += o.adder_sums;
    if (round_fill.size() < o.round_fill.size()) round_fill.resize(o.round_fill.size());
    for (std::size_t k = 0; k < o.round_fill.size(); ++k) round_fill[k] += o.round_fill[k];
  }
};

// A run of products inside a round.
struct ProductSpan {
  const Product* first;
  const Product* last;
  const Product* begin() const { return first; }
  const Product* end() const { return last; }
  std::size_t size() const { return std::size_t(last - first); }
};

// What one round did, for the accumulator and for the worked examples' checks.
struct RoundView {
  ProductSpan issued;                  // new products, multiplier order
  std::size_t reissued;                // FIFO products re-entering this round
  const std::vector<Product>& passed;  // what reaches the accumulator and VAR
};

// The p multipliers of a sparse compute unit (1305 / 1405 / 1505). Each round takes up
// to p pairs of one accumulation window in issue order (weight-major: every data value
// with the first weight, then with the second ...), at most `max_weights` unique
// weights per round (1 for unit 1300; 0 = fill every multiplier). FIFO products from
// the last round take their slots first (Fig. 20b).
class MultiplierArray {
 public:
  // adder_merge: unit 1500's adder block sums colliding neighbours (ignored for other units).
  MultiplierArray(SparseUnitKind kind, std::uint32_t multipliers, std::uint32_t max_weights,
                  std::uint32_t var_locations, bool adder_merge = false)
      : kind_(kind), p_(multipliers), cap_(kind == SparseUnitKind::Unit1300 ? 1 : max_weights),
        arbiter_(kind == SparseUnitKind::Unit1500 && adder_merge, var_locations) {
    stats_.round_fill.assign(std::size_t(p_) + 1, 0);
  }

  // Issues every pair of one window. adder_path: all products share one index (1x1 / fc,
  // §2.13), so the adder sums each round into one value for the special accumulator.
  template <class Accumulate>
  void issue(const std::vector<OperandPair>& pairs, bool adder_path, Accumulate&& accumulate) {
    std::size_t pos = 0;
    fifo_.clear();
    std::uint32_t last_weight = ~0u;
    round_.reserve(p_);
    while (pos < pairs.size() || !fifo_.empty()) {
      round_.assign(fifo_.begin(), fifo_.end());
      const std::size_t reissued = fifo_.size();
      // The stream is weight-major, so a round's unique weights are its weight changes + 1.
      std::uint32_t weights = 0, round_weight = ~0u;
      while (round_.size() < p_ && pos < pairs.size()) {
        const OperandPair& op = pairs[pos];
        if (op.weight_id != round_weight) {
          if (cap_ != 0 && weights == cap_) break;
          ++weights;
          round_weight = op.weight_id;
        }
        if (op.weight_id != last_weight) ++stats_.iterations;
        last_weight = op.weight_id;
        round_.push_back({std::int64_t(op.data) * op.weight, op.data, op.weight, op.var_index, op.weight_id});
        ++pos;
      }
      const std::size_t issued = round_.size() - reissued;
      ++stats_.rounds;
      ++stats_.round_fill[round_.size()];
      stats_.products += issued;
      stats_.reissued += reissued;
      const std::vector<Product>* round = &round_;  // the round as issued, wherever it now lives
      if (adder_path) {
        sum_round();
      } else if (kind_ == SparseUnitKind::Unit1300) {
        passed_.swap(round_);  // one weight per round: distinct data give distinct indices
        round = &passed_;
        fifo_.clear();
      } else {
        arbiter_.arbitrate(round_, passed_, fifo_);
      }
      const Product* first = round->data() + reissued;
      accumulate(RoundView{{first, first + issued}, reissued, passed_});
    }
  }

  const MultiplierStats& stats() const { return stats_; }
  const ArbiterStats& arbiter_stats() const { return arbiter_.stats(); }
  std::uint32_t multipliers() const { return p_; }

 private:
  void sum_round() {
    passed_.assign(1, round_.front());
    for (std::size_t i = 1; i < round_.size(); ++i) passed_[0].value += round_[i].value;
    stats_.adder_sums += round_.size() - 1;
    fifo_.clear();
  }

  SparseUnitKind kind_;
  std::uint32_t p_, cap_;
  WriteArbiter arbiter_;
  std::vector<Product> round_, passed_, fifo_;
  MultiplierStats stats_;
};

}  // namespace npusim
