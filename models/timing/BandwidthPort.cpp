#include "models/timing/BandwidthPort.h"

#include <algorithm>
#include <cmath>

namespace npusim {

BandwidthPort::BandwidthPort(std::string name, std::string kind, double bytes_per_cycle) {
  stats_.name = std::move(name);
  stats_.kind = std::move(kind);
  stats_.bytes_per_cycle = bytes_per_cycle;
}

Cycles BandwidthPort::transfer_cycles(std::uint64_t bytes) const {
  if (bytes == 0) return 0;
  return static_cast<Cycles>(std::ceil(static_cast<double>(bytes) / stats_.bytes_per_cycle));
}

Cycles BandwidthPort::reserve(Cycles now, Cycles earliest, std::uint64_t bytes, bool write) {
  (write ? stats_.bytes_written : stats_.bytes_read) += bytes;
  Cycles duration = transfer_cycles(bytes);
  if (duration == 0) return std::max(now, earliest);
  forget_before(now);
  Cycles start = first_fit(std::max(now, earliest), duration);
  book(start, start + duration);
  stats_.busy += duration;
  return start + duration;
}

Cycles BandwidthPort::first_fit(Cycles earliest, Cycles duration) const {
  Cycles start = earliest;
  // Intervals are disjoint and sorted, so their ends are sorted too: skip every
  // interval that is over by `earliest` without walking it (long calendars build
  // up while one instruction books all its tiles ahead).
  auto it = std::partition_point(busy_.begin(), busy_.end(),
                                 [start](const auto& interval) { return interval.second <= start; });
  for (; it != busy_.end(); ++it) {
    if (start + duration <= it->first) break;
    start = std::max(start, it->second);
  }
  return start;
}

void BandwidthPort::book(Cycles start, Cycles end) {
  auto it = std::lower_bound(busy_.begin(), busy_.end(), std::make_pair(start, end));
  it = busy_.insert(it, {start, end});
  // Merge with touching neighbours so back-to-back transfers stay one interval.
  if (it + 1 != busy_.end() && (it + 1)->first == it->second) {
    it->second = (it + 1)->second;
    busy_.erase(it + 1);
  }
  if (it != busy_.begin() && (it - 1)->second == it->first) {
    (it - 1)->second = it->second;
    busy_.erase(it);
  }
}

void BandwidthPort::forget_before(Cycles now) {
  auto first_live = std::find_if(busy_.begin(), busy_.end(),
                                 [now](const auto& interval) { return interval.second > now; });
  busy_.erase(busy_.begin(), first_live);
}

}  // namespace npusim
