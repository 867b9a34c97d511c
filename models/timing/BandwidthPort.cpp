#include "models/timing/BandwidthPort.h"

#include <algorithm>
#include <cmath>

namespace npusim {

BandwidthPort::BandwidthPort(std::string name, std::string kind, double bytes_per_cycle) {
  stats_.name = std::move(name);
  stats_.kind = std::move(kind);
  stats_.bytes_per_cycle = bytes_per_cycle;
  if (bytes_per_cycle >= 1 && bytes_per_cycle <= 1e9 && bytes_per_cycle == std::floor(bytes_per_cycle))
    whole_bytes_per_cycle_ = static_cast<std::uint64_t>(bytes_per_cycle);
}

void BandwidthPort::add_energy(EnergyLedger& ledger, const EnergyAction& read, const EnergyAction& write) const {
  const std::size_t c = ledger.add_component({stats_.name, stats_.kind, true, {}});
  ledger.add_source(c, read, &stats_.bytes_read, "bytes_read");
  ledger.add_source(c, write, &stats_.bytes_written, "bytes_written");
}

Cycles BandwidthPort::fractional_transfer_cycles(std::uint64_t bytes) const {
  if (bytes == 0) return 0;
  return static_cast<Cycles>(std::ceil(static_cast<double>(bytes) / stats_.bytes_per_cycle));
}

Cycles BandwidthPort::reserve(Cycles now, Cycles earliest, std::uint64_t bytes, bool write) {
  return reserve_cycles(now, earliest, bytes, transfer_cycles(bytes), write);
}

Cycles BandwidthPort::reserve_cycles(Cycles now, Cycles earliest, std::uint64_t bytes, Cycles duration, bool write) {
  (write ? stats_.bytes_written : stats_.bytes_read) += bytes;
  if (duration == 0) return std::max(now, earliest);
  forget_before(now);
  stats_.busy += duration;
  return fill_free_cycles(std::max(now, earliest), duration);
}

// A port serves requests, not whole transfers: a long transfer's requests go out in the free
// cycles between others' bookings instead of waiting for one gap that holds it whole. The
// gaps it fills join the intervals they lie between, so the calendar is updated with one
// range replacement whatever the number of gaps.
Cycles BandwidthPort::fill_free_cycles(Cycles earliest, Cycles duration) {
  // Most bookings land at or after the start of the last interval (a private link, a
  // stream of segments): no gap can lie ahead of them but the one after the last interval.
  if (busy_.size() == live_ || earliest >= busy_.back().first) {
    if (busy_.size() > live_ && earliest <= busy_.back().second) return busy_.back().second += duration;
    busy_.push_back({earliest, earliest + duration});
    return earliest + duration;
  }
  Cycles at = earliest, left = duration, first = earliest;
  auto it = std::partition_point(busy_.begin() + live_, busy_.end(),
                                 [at](const auto& interval) { return interval.second <= at; });
  const auto touched = it;  // the first interval the booking may join
  bool started = false;
  while (left > 0) {
    if (it != busy_.end() && it->first <= at) {
      at = std::max(at, it->second);
      ++it;
      continue;
    }
    const Cycles take = it == busy_.end() ? left : std::min(left, it->first - at);
    if (!started) first = at, started = true;
    at += take;
    left -= take;
  }
  // [first, at) is now busy: merge it with every interval it overlaps or touches.
  auto lo = touched;
  if (lo != busy_.begin() + live_ && (lo - 1)->second == first) --lo;
  auto hi = it;
  if (hi != busy_.end() && hi->first == at) ++hi;
  const Cycles start = lo != hi ? std::min(first, lo->first) : first;
  const Cycles end = lo != hi ? std::max(at, (hi - 1)->second) : at;
  if (lo == hi) {
    busy_.insert(lo, {start, end});
  } else {
    *lo = {start, end};
    busy_.erase(lo + 1, hi);
  }
  return at;
}

// Intervals over before `now` are skipped, and dropped once they are half the calendar.
void BandwidthPort::forget_before(Cycles now) {
  if (live_ == busy_.size() || busy_[live_].second > now) return;  // nothing newly over
  const auto first_live = std::partition_point(busy_.begin() + live_, busy_.end(),
                                               [now](const auto& interval) { return interval.second <= now; });
  live_ = std::size_t(first_live - busy_.begin());
  if (live_ > 32 && live_ * 2 > busy_.size()) {
    busy_.erase(busy_.begin(), busy_.begin() + live_);
    live_ = 0;
  }
}

}  // namespace npusim
