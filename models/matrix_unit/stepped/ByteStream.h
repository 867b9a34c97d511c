#pragma once
#include <algorithm>

#include "sim/common/Cycles.h"

namespace npusim::stepped {

// One bus or link moving transfers one after another at a fixed, possibly fractional,
// number of bytes per cycle. Each cycle it has that many bytes to spend: a transfer that
// ends mid-cycle hands the rest to the next one if that may begin in the same cycle; a
// transfer that may not begin (its slot is still held) moves nothing, and the unspent
// budget of the cycle is lost.
class ByteStream {
 public:
  explicit ByteStream(double bytes_per_cycle) : rate_(bytes_per_cycle) {}

  // Sender: bool can_begin(Cycles t)  - is there a next transfer, and may it begin at t;
  //         double begin(Cycles t)    - it begins; returns its size in bytes;
  //         void finish(Cycles t)     - its last byte moved in cycle t.
  // Returns whether any byte moved in cycle t.
  template <typename Sender>
  bool step(Cycles t, Sender& sender) {
    double budget = rate_;
    bool moved = false;
    while (budget > kRounding) {
      if (!busy_) {
        if (!sender.can_begin(t)) break;
        left_ = sender.begin(t);
        busy_ = true;
      }
      double part = std::min(left_, budget);
      budget -= part;
      left_ -= part;
      moved = true;
      if (left_ > kRounding) break;
      busy_ = false;
      sender.finish(t);
    }
    return moved;
  }

 private:
  // Sums of fractional rates round; a remainder this small counts as nothing.
  static constexpr double kRounding = 1e-9;
  double rate_;
  double left_ = 0;
  bool busy_ = false;
};

}  // namespace npusim::stepped
