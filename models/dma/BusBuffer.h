#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "sim/common/Cycles.h"

namespace npusim {

// seed004 §2.5.3's bus buffer, on a store DMA's way to DRAM: a segment's bytes hold room
// in it from when the segment issues until its DRAM write has landed, and a segment issues
// only once the buffer has room for it (one larger than the buffer waits until it is empty).
// The store's early end flag (its release, when its last bytes are in the buffer) comes after
// that wait, so a following independent load waits for the store's data to be in the buffer.
// Segments of the instructions in flight issue in program order; their writes may land out
// of order, so room comes back by landing time.
class BusBuffer {
 public:
  explicit BusBuffer(std::uint64_t capacity) : capacity_(capacity) {}

  // The first cycle at or after `at` when `bytes` fit; the cycles waited count as full.
  Cycles admit(Cycles at, std::uint64_t bytes);
  // A segment of `bytes` admitted at `from` holds them until `until`.
  void hold(Cycles from, Cycles until, std::uint64_t bytes);

  std::uint64_t capacity() const { return capacity_; }
  std::uint64_t peak_bytes() const { return peak_; }
  std::uint64_t full_cycles() const { return full_cycles_; }
  // Sum over segments of bytes x cycles held: over a run's length, the mean occupancy.
  std::uint64_t byte_cycles() const { return byte_cycles_; }

 private:
  void release_until(Cycles t);

  std::uint64_t capacity_;
  std::uint64_t held_ = 0, peak_ = 0, full_cycles_ = 0, byte_cycles_ = 0;
  using Entry = std::pair<Cycles, std::uint64_t>;  // (landing cycle, bytes)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> landing_;
};

}  // namespace npusim
