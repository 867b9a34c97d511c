#include "models/matrix_unit/stepped/BufferSlots.h"

#include <algorithm>

namespace npusim::stepped {

BufferSlots::BufferSlots(std::uint32_t slots, std::size_t slot_bytes)
    : slots_(slots), slot_bytes_(slot_bytes), contents_(std::size_t(slots) * slot_bytes) {}

void BufferSlots::hold(std::uint64_t item) {
  Slot& s = slot(item);
  s.item = item;
  s.used = true;
  s.usable_from = kNever;
  s.free_from = kNever;
}

bool BufferSlots::may_load(std::uint64_t item, Cycles t) const {
  const Slot& s = slot(item);
  if (s.used && s.item == item) return s.free_from == kNever;  // held for it (released: done)
  const bool previous = item < slots() ? !s.used : s.used && s.item + slots() == item;
  return previous && s.free_from <= t;
}

bool BufferSlots::usable(std::uint64_t item, Cycles t) const {
  const Slot& s = slot(item);
  return s.item == item && s.usable_from <= t;
}

std::uint32_t largest_window_rows(const WfoldPlan& plan) {
  std::uint32_t largest = 0;
  for (const KwPiece& piece : plan.kw_pieces) largest = std::max(largest, piece.data_rows);
  return largest;
}

}  // namespace npusim::stepped
