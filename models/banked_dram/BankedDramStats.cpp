#include <cmath>
#include <string>

#include "models/banked_dram/BankedDram.h"

namespace npusim {

// Starting a transaction: no burst is shared with the previous one's.
void BankedDram::begin() {
  for (auto& list : pending_) list.clear();
  std::fill(last_burst_.begin(), last_burst_.end(), ~std::uint64_t{0});
}

void BankedDram::register_stats(StatRegistry& registry) {
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    StatGroup& g = registry.group("dram.ch" + std::to_string(c), "dram_channel");
    Published p{};
    p.reads = &g.counter("read_bursts", "count", "read bursts served");
    p.writes = &g.counter("write_bursts", "count", "write bursts served (queued writes left at the end excluded)");
    p.hits = &g.counter("row_hits", "count", "bursts that found their row open");
    p.misses = &g.counter("row_misses", "count", "bursts that found their bank precharged (ACT)");
    p.conflicts = &g.counter("row_conflicts", "count", "bursts that found another row open (PRE, ACT)");
    p.acts = &g.counter("act_commands", "count", "ACT commands");
    p.pres = &g.counter("pre_commands", "count", "PRE commands (a closed page's auto-precharges included; not a refresh's)");
    p.dram_clocks = &g.counter("dram_clocks", "count", "the DRAM's own clocks up to the channel's last data (background energy)");
    p.turnarounds = &g.counter("turnarounds", "count", "switches of the data bus between reads and writes");
    p.refreshes = &g.counter("refreshes", "count", "all-bank refreshes up to the channel's last data");
    p.refresh_cycles = &g.counter("refresh_cycles", "cycles", "chip cycles the refreshes blocked the channel (tRP + tRFC each)");
    p.latency_total = &g.counter("read_latency_total", "cycles", "Σ over read bursts of arrival to last data beat; / read_bursts = average");
    p.latency_p99 = &g.counter("read_latency_p99", "cycles", "99th percentile of a read burst's latency");
    p.read_wait = &g.counter("read_queue_cycles", "cycles", "Σ over reads of time queued; / run cycles = average read queue occupancy");
    p.write_wait = &g.counter("write_queue_cycles", "cycles", "Σ over writes of time queued; / run cycles = average write queue occupancy");
    const char* const kinds[] = {"act", "pre", "read", "write", "refresh", "background"};
    for (int k = 0; k < 6; ++k)
      p.energy[k] = &g.counter(std::string("energy_") + kinds[k] + "_pj", "pJ",
                               std::string(kinds[k]) + " energy from the datasheet currents (models/banked_dram/CommandEnergy.h)");
    published_.push_back(p);
  }
}

void BankedDram::publish() const {
  for (std::size_t c = 0; c < published_.size(); ++c) publish_channel(channels_[c], published_[c]);
}

void BankedDram::publish_channel(const BankedChannel& ch, const Published& out) const {
  const ChannelCounters& n = ch.counters();
  *out.reads = n.read_bursts, *out.writes = n.write_bursts;
  *out.hits = n.row_hits, *out.misses = n.row_misses, *out.conflicts = n.row_conflicts;
  *out.turnarounds = n.turnarounds;
  *out.acts = n.acts, *out.pres = n.pres, *out.dram_clocks = n.last_data;
  *out.refreshes = n.refreshes;
  *out.refresh_cycles = to_chip(n.refreshes * ch.timing().refresh_window());
  *out.read_wait = to_chip(n.read_wait), *out.write_wait = to_chip(n.write_wait);
  DramClock total = 0, p99 = 0;
  std::uint64_t seen = 0;
  const std::uint64_t rank99 = (n.read_bursts * 99 + 99) / 100;  // ⌈0.99 n⌉-th smallest
  n.read_latency.for_each([&](DramClock latency, std::uint64_t count) {
    total += latency * count;
    if (seen < rank99 && seen + count >= rank99) p99 = latency;
    seen += count;
  });
  *out.latency_total = to_chip(total);
  *out.latency_p99 = to_chip(p99);
  publish_energy(ch, out);
}

// Each command as counted by its channel (the PREA of a refresh is in the refresh's energy);
// background runs to the channel's last data.
std::array<double, 6> BankedDram::channel_energy(const BankedChannel& ch) const {
  const ChannelCounters& n = ch.counters();
  return {double(n.acts) * energy_.act, double(n.pres) * energy_.pre, double(n.read_bursts) * energy_.read,
          double(n.write_bursts) * energy_.write, double(n.refreshes) * energy_.refresh,
          double(n.last_data) * energy_.background_per_clock};
}

// The run's energy account prices each channel's commands at the datasheet's energy
// (CommandEnergy), counted as they go out, in place of the bandwidth model's price per byte.
void BankedDram::add_energy(EnergyLedger& ledger) const {
  const double pj[6] = {energy_.act, energy_.pre, energy_.read, energy_.write, energy_.refresh, energy_.background_per_clock};
  const char* const actions[6] = {"act", "pre", "read", "write", "refresh", "background"};
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    const ChannelCounters& n = channels_[c].counters();
    const std::uint64_t* counts[6] = {&n.acts, &n.pres, &n.read_bursts, &n.write_bursts, &n.refreshes, &n.last_data};
    const std::size_t component = ledger.add_component({"dram.ch" + std::to_string(c), "dram_channel", true, {}});
    for (int k = 0; k < 6; ++k) {
      EnergyAction action{"dram", actions[k]};
      action.own_pj = pj[k];
      ledger.add_source(component, action, counts[k], k == 5 ? "dram_clocks" : std::string(actions[k]) + "_commands");
    }
  }
}

void BankedDram::publish_energy(const BankedChannel& ch, const Published& out) const {
  const std::array<double, 6> pj = channel_energy(ch);
  for (int k = 0; k < 6; ++k) *out.energy[k] = static_cast<std::uint64_t>(std::llround(pj[k]));
}

}  // namespace npusim
