#include "models/banked_dram/BankedDram.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/config/BankedDramChecks.h"

namespace npusim {

namespace {
// Clock conversions round up: a command waits for the next edge of the clock it goes out on.
std::uint64_t scaled_up(std::uint64_t t, double ratio) {
  return static_cast<std::uint64_t>(std::ceil(static_cast<double>(t) * ratio - 1e-9));
}
}  // namespace

BankedDram::BankedDram(const DramConfig& cfg, double chip_clock_mhz)
    : cfg_(cfg), mapper_(cfg.banked), pending_(cfg.channels), last_burst_(cfg.channels), dram_mhz_(cfg.banked.clock_mhz), chip_mhz_(chip_clock_mhz),
      energy_(command_energy(cfg.banked)) {
  channels_.reserve(cfg.channels);
  for (std::uint32_t c = 0; c < cfg.channels; ++c) channels_.emplace_back(cfg.banked);
}

Cycles BankedDram::to_chip(DramClock t) const { return scaled_up(t, chip_mhz_ / dram_mhz_); }
DramClock BankedDram::to_dram(Cycles t) const { return scaled_up(t, dram_mhz_ / chip_mhz_); }

Cycles BankedDram::bus_cycles(std::uint64_t bursts) const {
  return to_chip(bursts * channels_.front().timing().burst_clocks());
}

double BankedDram::peak_bytes_per_cycle() const { return channel_peak_bytes_per_cycle(cfg_, chip_mhz_); }

// Consecutive pieces of one channel often share a burst (rows narrower than a burst):
// the burst goes once.
void BankedDram::add(std::uint32_t channel, std::uint64_t local_address, std::uint64_t bytes) {
  const std::uint64_t size = burst_bytes();
  for (std::uint64_t at = local_address / size * size; at < local_address + bytes; at += size) {
    if (last_burst_[channel] == at) continue;
    last_burst_[channel] = at;
    pending_[channel].push_back(mapper_.place(at));
  }
}

Cycles BankedDram::book(Cycles earliest, bool write) {
  const DramClock arrival = to_dram(earliest);
  DramClock done = arrival;
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    if (pending_[c].empty()) continue;
    done = std::max(done, write ? channels_[c].write(pending_[c], arrival) : channels_[c].read(pending_[c], arrival));
    trace_booking(c, write);
  }
  return std::max(earliest, to_chip(done));
}

// A write booking shows only when it set off a drain (its writes and the queued ones).
void BankedDram::trace_booking(std::size_t channel, bool write) {
  const auto [start, end] = channels_[channel].take_bus_span();
  if (!spans_ || start >= end) return;
  spans_->add("dram.ch" + std::to_string(channel), write ? "write drain" : "read", to_chip(start), to_chip(end));
}

}  // namespace npusim
