#include "apps/compiler/emit/ActivationHeap.h"

#include <algorithm>
#include <iterator>

namespace npusim {

void ActivationHeap::merge_owners(std::vector<int>& into, const std::vector<int>& from) {
  for (int owner : from)
    if (std::find(into.begin(), into.end(), owner) == into.end()) into.push_back(owner);
}

std::uint64_t ActivationHeap::allocate(std::uint64_t bytes, std::vector<int>& previous) {
  auto best = free_.end();
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const std::uint64_t size = it->second.end - it->first;
    if (size >= bytes && (best == free_.end() || size < best->second.end - best->first)) best = it;
  }
  if (best == free_.end()) return extend(bytes, previous);
  // The top part of the block, so that the rest stays next to whatever lies below it.
  Free block = best->second;
  const std::uint64_t at = block.end - bytes;
  merge_owners(previous, block.owners);
  if (at > best->first)
    best->second.end = at;
  else
    free_.erase(best);
  return at;
}

// No freed block is big enough: grow down, through the lowest block when it touches low_.
std::uint64_t ActivationHeap::extend(std::uint64_t bytes, std::vector<int>& previous) {
  std::uint64_t end = low_;
  if (!free_.empty() && free_.begin()->first == low_) {
    end = free_.begin()->second.end;
    merge_owners(previous, free_.begin()->second.owners);
    free_.erase(free_.begin());
  }
  // Unsigned wrap-around when the memory is too small is harmless: depth() says so first.
  low_ = end - bytes;
  return low_;
}

void ActivationHeap::release(std::uint64_t address, std::uint64_t bytes, int owner) {
  if (bytes == 0) return;
  Free block{address + bytes, {owner}};
  auto next = free_.lower_bound(address);
  if (next != free_.end() && next->first == block.end) {  // the free block just above
    block.end = next->second.end;
    merge_owners(block.owners, next->second.owners);
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto below = std::prev(next);
    if (below->second.end == address) {  // the free block just below
      below->second.end = block.end;
      merge_owners(below->second.owners, block.owners);
      return;
    }
  }
  free_.emplace(address, std::move(block));
}

}  // namespace npusim
