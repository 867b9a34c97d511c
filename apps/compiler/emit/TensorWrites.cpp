#include "apps/compiler/emit/TensorWrites.h"

#include <algorithm>

namespace npusim {

void TensorWrites::add(std::uint64_t begin, std::uint64_t end, std::uint64_t id) {
  writes_.push_back({begin, end, id});
  longest_ = std::max(longest_, end - begin);
}

void TensorWrites::seal() {
  std::stable_sort(writes_.begin(), writes_.end(), [](const Write& a, const Write& b) { return a.begin < b.begin; });
}

std::vector<std::uint64_t> TensorWrites::writers(std::uint64_t begin, std::uint64_t end) const {
  std::vector<std::uint64_t> ids;
  // Writes starting at or after `end` cannot overlap; of those before, only the ones
  // starting within `longest_` of `begin` can reach it.
  auto it = std::lower_bound(writes_.begin(), writes_.end(), end, [](const Write& w, std::uint64_t at) { return w.begin < at; });
  while (it != writes_.begin()) {
    --it;
    if (it->begin + longest_ <= begin) break;
    if (it->end > begin) ids.push_back(it->id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

void TensorWrites::clear() {
  writes_.clear();
  writes_.shrink_to_fit();
  longest_ = 0;
}

}  // namespace npusim
