#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/matrix_unit/stepped/SteppedWorkOrder.h"

namespace npusim::stepped {

// A buffer of numbered slots that items (windows, weight rows) pass through in order:
// item i goes to slot i mod slots. An item may start loading once the slot's previous
// item has been released; it is usable from the cycle its transfer set, and its slot is
// free again from the cycle after its last use. With contents, each slot holds
// `slot_bytes` bytes; without (timing only) none are kept.
class BufferSlots {
 public:
  BufferSlots(std::uint32_t slots, std::size_t slot_bytes);

  std::uint32_t slots() const { return static_cast<std::uint32_t>(slots_.size()); }
  bool free_for(std::uint64_t item, Cycles t) const { return slot(item).free_from <= t; }
  // Whether the item may load in cycle t: its slot already holds it, or the slot's previous
  // item (item - slots, or none) has been released by then. Unlike free_for, this does not
  // take a release of an older item for one of this item.
  bool may_load(std::uint64_t item, Cycles t) const;
  // The item starts loading: the slot is held until released.
  void hold(std::uint64_t item);
  void arrive(std::uint64_t item, Cycles usable_from) { slot(item).usable_from = usable_from; }
  bool usable(std::uint64_t item, Cycles t) const;
  // Its last use was in cycle t.
  void release(std::uint64_t item, Cycles t) { slot(item).free_from = t + 1; }
  std::uint8_t* bytes(std::uint64_t item) { return contents_.data() + index(item) * slot_bytes_; }

 private:
  struct Slot {
    std::uint64_t item = 0;
    Cycles usable_from = kNever;
    Cycles free_from = 0;
    bool used = false;  // has held an item
  };
  std::size_t index(std::uint64_t item) const { return static_cast<std::size_t>(item % slots_.size()); }
  Slot& slot(std::uint64_t item) { return slots_[index(item)]; }
  const Slot& slot(std::uint64_t item) const { return slots_[index(item)]; }

  std::vector<Slot> slots_;
  std::size_t slot_bytes_;
  std::vector<std::uint8_t> contents_;
};

// The first buffer: one or two window slots (rule 2). The second buffer: a ring of
// plan.second_buffer_ring weight-row slots per slave (rule 4).
using FirstBuffer = BufferSlots;
using SecondBufferRing = BufferSlots;

// Data rows of the largest window (the kw piece with the most rows).
std::uint32_t largest_window_rows(const WfoldPlan& plan);
// Rule 2: two window slots when two of the largest windows fit in L1, one otherwise.
inline std::uint32_t first_buffer_slots(const WfoldPlan& plan) { return 2 * largest_window_rows(plan) <= plan.l1 ? 2 : 1; }

}  // namespace npusim::stepped
