#include "models/dma/BusBuffer.h"

#include <algorithm>

namespace npusim {

void BusBuffer::release_until(Cycles t) {
  while (!landing_.empty() && landing_.top().first <= t) {
    held_ -= landing_.top().second;
    landing_.pop();
  }
}

Cycles BusBuffer::admit(Cycles at, std::uint64_t bytes) {
  const Cycles asked = at;
  release_until(at);
  // The bytes fit, or the buffer is empty (a segment larger than it goes alone).
  while (held_ > 0 && held_ + bytes > capacity_) {
    at = std::max(at, landing_.top().first);
    release_until(at);
  }
  full_cycles_ += at - asked;
  return at;
}

void BusBuffer::hold(Cycles from, Cycles until, std::uint64_t bytes) {
  held_ += bytes;
  peak_ = std::max(peak_, held_);
  byte_cycles_ += bytes * (until > from ? until - from : 0);
  landing_.push({until, bytes});
}

}  // namespace npusim
