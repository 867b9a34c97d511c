#include "models/matrix_unit/stepped/ByteStream.h"

#include <algorithm>

namespace npusim::stepped {

namespace {
// Sums of fractional rates round; a remainder this small counts as nothing.
constexpr double kRounding = 1e-9;
}  // namespace

bool ByteStream::step(Cycles t) {
  double budget = rate_;
  bool moved = false;
  while (budget > kRounding) {
    if (!busy_) {
      if (!can_begin(t)) break;
      left_ = begin(t);
      busy_ = true;
    }
    double part = std::min(left_, budget);
    budget -= part;
    left_ -= part;
    moved = true;
    if (left_ > kRounding) break;
    busy_ = false;
    finish(t + 1 + latency_);
  }
  return moved;
}

}  // namespace npusim::stepped
