#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/sparse_compute_unit/LocationMask.h"
#include "models/sparse_compute_unit/WriteArbiter.h"

namespace npusim {

// WriteArbiter's rule for a timing round held as masks (CountedRounds.h): the FIFO's
// products one by one, then each weight's products a mask at a time. A weight's products
// have distinct locations, so within a mask only the ones already taken this round
// collide, and only its first product can be the neighbour of the product before it (the
// last of the previous mask or FIFO), which is the one unit 1500's adder may absorb.
// The randomized test holds this to WriteArbiter over every statistic.
template <class Mask>
class LocationArbiter {
 public:
  explicit LocationArbiter(bool merge_neighbours) : merge_(merge_neighbours) {}

  // `fifo` holds the waiting products' locations on entry and the deferred ones on exit.
  void arbitrate(std::vector<std::uint32_t>& fifo, const std::vector<Mask>& weights) {
    taken_ = Mask{};
    alone_ = false;
    deferred_.clear();
    for (std::uint32_t at : fifo) one_product(at);
    for (const Mask& m : weights) one_weight(m);
    fifo.swap(deferred_);
    stats_.fifo_max = std::max<std::uint64_t>(stats_.fifo_max, fifo.size());
  }
  const ArbiterStats& stats() const { return stats_; }

 private:
  // Passes a first product for its location; sums a neighbour of the same location into
  // the one before it (unit 1500, once); defers any other.
  void one_product(std::uint32_t at) {
    if (!mask_has(taken_, at)) {
      mask_set(taken_, at);
      alone_ = true;
    } else {
      defer_or_merge(at);
    }
    last_ = at;
  }
  void defer_or_merge(std::uint32_t at) {
    if (merge_ && alone_ && last_ == at) {
      ++stats_.adjacent_merges;
    } else {
      deferred_.push_back(at);
      ++stats_.collisions;
    }
    alone_ = false;
  }
  void one_weight(Mask m) {
    const Mask clash = m & taken_;
    taken_ |= m;
    if (!mask_any(clash)) {
      alone_ = true;
      last_ = mask_highest(m);
      return;
    }
    const std::uint32_t first = mask_lowest(m), last = mask_highest(m);
    for_each_location(clash, 0, [&](std::uint32_t at) {
      if (at != first) alone_ = false;  // a product between passed
      defer_or_merge(at);
    });
    alone_ = !mask_has(clash, last);
    last_ = last;
  }

  bool merge_;
  Mask taken_{};
  bool alone_ = false;
  std::uint32_t last_ = 0;
  std::vector<std::uint32_t> deferred_;
  ArbiterStats stats_;
};

}  // namespace npusim
