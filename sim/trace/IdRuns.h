#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace npusim {

// The set of instruction ids seen so far, kept as runs of consecutive ids. Ids
// arrive in increasing order, so a trace numbered 0, 1, 2, ... is one run and
// the set stays the same size however long the trace is.
class IdRuns {
 public:
  // `id` must be greater than every id added before.
  void add(std::uint64_t id) {
    if (!runs_.empty() && runs_.back().second + 1 == id)
      runs_.back().second = id;
    else
      runs_.emplace_back(id, id);
  }

  bool contains(std::uint64_t id) const {
    // The last run starting at or before `id` is the only one that can hold it.
    auto after = std::upper_bound(runs_.begin(), runs_.end(), id,
                                  [](std::uint64_t v, const Run& run) { return v < run.first; });
    return after != runs_.begin() && id <= std::prev(after)->second;
  }

  std::size_t runs() const { return runs_.size(); }

 private:
  using Run = std::pair<std::uint64_t, std::uint64_t>;  // first and last id
  std::vector<Run> runs_;
};

}  // namespace npusim
