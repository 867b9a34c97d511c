#include "models/sparse_compute_unit/WriteArbiter.h"

#include <algorithm>

namespace npusim {

void WriteArbiter::arbitrate(const std::vector<Product>& round, std::vector<Product>& passed,
                             std::vector<Product>& fifo) {
  passed.clear();
  fifo.clear();
  ++round_;
  owner_.resize(stamp_.size());
  bool previous_passed_alone = false;  // the previous slot passed and has not absorbed a neighbour
  for (std::size_t slot = 0; slot < round.size(); ++slot) {
    const Product& p = round[slot];
    if (stamp_[p.var_index] != round_) {
      stamp_[p.var_index] = round_;
      owner_[p.var_index] = int(passed.size());
      passed.push_back(p);
      previous_passed_alone = true;
      continue;
    }
    // Unit 1500: the adder block sums each product with its neighbour; the select unit
    // takes the sum when the two share an index (¶184). A sum has two terms, so a third
    // product of the same index waits like any other collision.
    const bool neighbour = previous_passed_alone && round[slot - 1].var_index == p.var_index;
    previous_passed_alone = false;
    if (merge_neighbours_ && neighbour) {
      passed[owner_[p.var_index]].value += p.value;
      ++stats_.adjacent_merges;
      continue;
    }
    fifo.push_back(p);
    ++stats_.collisions;
  }
  stats_.fifo_max = std::max<std::uint64_t>(stats_.fifo_max, fifo.size());
}

}  // namespace npusim
