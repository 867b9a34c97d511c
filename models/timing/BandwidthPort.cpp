#include "models/timing/BandwidthPort.h"

#include <algorithm>
#include <cmath>

namespace npusim {

BandwidthPort::BandwidthPort(std::string name, std::string kind, double bytes_per_cycle) {
  stats_.name = std::move(name);
  stats_.kind = std::move(kind);
  stats_.bytes_per_cycle = bytes_per_cycle;
}

void BandwidthPort::add_energy(EnergyLedger& ledger, const EnergyAction& read, const EnergyAction& write) const {
  const std::size_t c = ledger.add_component({stats_.name, stats_.kind, true, {}});
  ledger.add_source(c, read, &stats_.bytes_read, "bytes_read");
  ledger.add_source(c, write, &stats_.bytes_written, "bytes_written");
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
  stats_.busy += duration;
  return fill_free_cycles(std::max(now, earliest), duration);
}

// A port serves requests, not whole transfers: a long transfer's requests go out in the free
// cycles between others' bookings instead of waiting for one gap that holds it whole.
Cycles BandwidthPort::fill_free_cycles(Cycles earliest, Cycles duration) {
  std::vector<std::pair<Cycles, Cycles>> pieces;
  Cycles at = earliest, left = duration;
  auto it = std::partition_point(busy_.begin(), busy_.end(),
                                 [at](const auto& interval) { return interval.second <= at; });
  while (left > 0) {
    if (it != busy_.end() && it->first <= at) {
      at = std::max(at, it->second);
      ++it;
      continue;
    }
    const Cycles take = it == busy_.end() ? left : std::min(left, it->first - at);
    pieces.emplace_back(at, at + take);
    at += take;
    left -= take;
  }
  for (const auto& [start, end] : pieces) book(start, end);
  return at;
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
