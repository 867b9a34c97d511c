#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "models/banked_dram/BankedChannel.h"
#include "models/banked_dram/BurstMapper.h"
#include "models/banked_dram/CommandEnergy.h"
#include "sim/common/Cycles.h"
#include "sim/config/HardwareConfig.h"
#include "sim/energy/EnergyLedger.h"
#include "sim/report/BlockSpans.h"
#include "sim/stats/StatRegistry.h"

namespace npusim {

// The banked channels of one DRAM, in chip cycles outside and DRAM clocks inside. The DRAM
// hands it each transaction's pieces as (channel, channel-local address, bytes); every piece
// becomes the whole bursts it touches (a 47-byte row still moves a 64-byte burst).
class BankedDram {
 public:
  BankedDram(const DramConfig& cfg, double chip_clock_mhz);

  // Starts a transaction's pieces; add them, then book() them all from one cycle.
  void begin();
  void add(std::uint32_t channel, std::uint64_t local_address, std::uint64_t bytes);
  // Books the pieces from chip cycle `earliest`: reads return when their last data beat
  // has arrived, writes when the last is in its channel's write queue. The chip cycle.
  Cycles book(Cycles earliest, bool write);

  std::uint64_t pending_bursts(std::uint32_t channel) const { return pending_[channel].size(); }
  // Bursts moved on `channel` (bytes) and its data bus time in chip cycles, for its port stats.
  std::uint64_t burst_bytes() const { return mapper_.burst_bytes(); }
  Cycles bus_cycles(std::uint64_t bursts) const;
  // The channel's peak bandwidth in bytes per chip cycle.
  double peak_bytes_per_cycle() const;

  // One stat group per channel ("dram.ch0", kind dram_channel); fill them with publish().
  void register_stats(StatRegistry& registry);
  void publish() const;
  // Each booking's data-bus time becomes a span on track "dram.ch<n>" (Perfetto timeline).
  void trace_to(const BlockSpans& spans) { spans_ = &spans; }

  const BankedChannel& channel(std::uint32_t c) const { return channels_[c]; }
  // Each channel's commands as sources of the run's energy account (class dram).
  void add_energy(EnergyLedger& ledger) const;
  // Each command kind's energy on `ch`, pJ: ACT, PRE, RD, WR, REF, background.
  std::array<double, 6> channel_energy(const BankedChannel& ch) const;
  Cycles to_chip(DramClock t) const;
  DramClock to_dram(Cycles t) const;

 private:
  struct Published {
    std::uint64_t *reads, *writes, *hits, *misses, *conflicts, *turnarounds, *refreshes, *refresh_cycles;
    std::uint64_t *acts, *pres, *dram_clocks;
    std::uint64_t *latency_total, *latency_p99, *read_wait, *write_wait;
    std::uint64_t* energy[6];  // pJ: ACT, PRE, RD, WR, REF, background
  };
  void publish_channel(const BankedChannel& ch, const Published& out) const;
  void publish_energy(const BankedChannel& ch, const Published& out) const;

  DramConfig cfg_;
  BurstMapper mapper_;
  std::vector<BankedChannel> channels_;
  std::vector<std::vector<BurstPlace>> pending_;  // per channel, of the transaction being booked
  std::vector<std::uint64_t> last_burst_;          // per channel, the last burst address added
  double dram_mhz_, chip_mhz_;
  CommandEnergy energy_;
  const BlockSpans* spans_ = nullptr;
  void trace_booking(std::size_t channel, bool write);
  std::vector<Published> published_;
};

}  // namespace npusim
