#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/common/Cycles.h"
#include "sim/energy/EnergyLedger.h"
#include "sim/report/RunStats.h"

namespace npusim {

// A shared resource that moves a limited number of bytes per cycle: a DRAM
// channel, a scratchpad port, a bus. Users book it for a transfer and learn when
// their last byte has passed. Bookings are kept as a calendar of busy intervals,
// so a transfer booked for later does not block an earlier one that fits in a gap:
// this is how contention appears without clocking the port every cycle.
class BandwidthPort {
 public:
  BandwidthPort(std::string name, std::string kind, double bytes_per_cycle);

  // Books `bytes` starting no earlier than `earliest`; `now` lets the calendar
  // forget intervals that are over. Returns the cycle after the last byte.
  Cycles reserve(Cycles now, Cycles earliest, std::uint64_t bytes, bool write);
  // The same for a batch of requests from one cycle that together hold the port `cycles`
  // cycles (each rounded up to whole cycles on its own): exactly what booking them one
  // by one from `earliest` would give.
  Cycles reserve_cycles(Cycles now, Cycles earliest, std::uint64_t bytes, Cycles cycles, bool write);

  // Cycles the port needs for `bytes` when it is free: ⌈bytes / bandwidth⌉.
  Cycles transfer_cycles(std::uint64_t bytes) const {
    if (whole_bytes_per_cycle_ == 0) return fractional_transfer_cycles(bytes);
    return (bytes + whole_bytes_per_cycle_ - 1) / whole_bytes_per_cycle_;
  }

  // No booking ends after `now`: every port of the same width in this state answers
  // later bookings alike.
  bool idle_from(Cycles now) const { return busy_.size() == live_ || busy_.back().second <= now; }
  // For ports that mirror another of the same width (MatrixUnit's slave links): take over
  // its calendar, or count a booking the mirrored port made on this one's behalf.
  void copy_calendar(const BandwidthPort& other) { busy_ = other.busy_, live_ = other.live_; }
  void add_mirrored(std::uint64_t bytes, Cycles cycles, bool write) {
    (write ? stats_.bytes_written : stats_.bytes_read) += bytes;
    stats_.busy += cycles;
  }

  // Books its bytes read and written as energy actions of one component named after it.
  void add_energy(EnergyLedger& ledger, const EnergyAction& read, const EnergyAction& write) const;

  const std::string& name() const { return stats_.name; }
  double bytes_per_cycle() const { return stats_.bytes_per_cycle; }
  PortStats& stats() { return stats_; }
  const PortStats& stats() const { return stats_; }

 private:
  Cycles fractional_transfer_cycles(std::uint64_t bytes) const;
  Cycles fill_free_cycles(Cycles earliest, Cycles duration);
  void forget_before(Cycles now);

  PortStats stats_;
  // The bandwidth when it is a whole number of bytes (the usual case): integer arithmetic
  // gives the same ⌈bytes / bandwidth⌉ as the floating-point form, faster. 0 otherwise.
  std::uint64_t whole_bytes_per_cycle_ = 0;
  std::vector<std::pair<Cycles, Cycles>> busy_;  // sorted, disjoint, never touching [start, end)
  std::size_t live_ = 0;                          // busy_[0, live_) are over
};

}  // namespace npusim
