// Pattern benchmark of the banked DRAM model (bench/README.md): one channel of a preset,
// six access patterns, achieved bandwidth and row-hit rate as a markdown table.
//   build/dram_patterns configs/dram/ddr4-3200.json [more presets...]
#include <cstdio>
#include <algorithm>
#include <functional>
#include <random>
#include <string>

#include <systemc>

#include "models/banked_dram/BankedChannel.h"
#include "models/banked_dram/BurstMapper.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;

namespace {

constexpr std::uint64_t kBytes = 16ull << 20;  // each pattern moves 16 MiB of requests

struct Request {
  std::uint64_t address, bytes;
  bool write;
};
using Pattern = std::function<Request(std::uint64_t i, std::mt19937_64& random)>;

struct Outcome {
  double gbps, hit_rate;
};

// Every request arrives at once (a saturated controller): the requests are handed to the
// channel in order, each entering its queue (read or write) as soon as that has a slot and
// the one ahead has entered; the controller reorders within its queues. Each request moves
// the whole bursts it touches; bandwidth counts the bytes asked for.
Outcome drive(const DramConfig& dram, const Pattern& pattern, std::uint64_t request_bytes) {
  BankedChannel channel(dram.banked);
  const BurstMapper mapper(dram.banked);
  const std::uint64_t burst = mapper.burst_bytes();
  std::mt19937_64 random(1);
  for (std::uint64_t i = 0; i < kBytes / request_bytes; ++i) {
    const Request r = pattern(i, random);
    for (std::uint64_t at = r.address / burst * burst; at < r.address + r.bytes; at += burst)
      channel.submit(mapper.place(at), r.write, 0);
  }
  channel.finish();
  const ChannelCounters& n = channel.counters();
  const double seconds = double(n.last_data) / (dram.banked.clock_mhz * 1e6);
  return {double(kBytes) / seconds / 1e9, double(n.row_hits) / double(n.read_bursts + n.write_bursts)};
}

void run_preset(const std::string& path) {
  const HardwareConfig hw = load_hardware_config(path);
  const DramConfig& d = hw.chip.dram;
  const std::uint64_t span = d.capacity_bytes / d.channels;
  const double peak = double(d.banked.burst_bytes()) / d.banked.burst_clocks() * d.banked.clock_mhz / 1e3;
  struct Named { const char* name; Pattern pattern; std::uint64_t bytes; };
  const Named patterns[] = {
      {"sequential read", [](std::uint64_t i, std::mt19937_64&) { return Request{i * 64, 64, false}; }, 64},
      {"sequential write", [](std::uint64_t i, std::mt19937_64&) { return Request{i * 64, 64, true}; }, 64},
      {"50/50 read/write", [span](std::uint64_t i, std::mt19937_64&) {
         return Request{(i / 2) * 64 + (i % 2) * (span / 2), 64, i % 2 == 1}; }, 64},
      {"4:1 read/write", [span](std::uint64_t i, std::mt19937_64&) {
         return Request{(i % 5 == 4 ? span / 2 + (i / 5) * 64 : (i - i / 5) * 64), 64, i % 5 == 4}; }, 64},
      {"47-B rows, 4 KiB pitch", [](std::uint64_t i, std::mt19937_64&) { return Request{i * 4096, 47, false}; }, 47},
      {"random 64-B reads", [span](std::uint64_t, std::mt19937_64& r) { return Request{r() % (span / 64) * 64, 64, false}; }, 64},
  };
  for (const Named& p : patterns) {
    const Outcome o = drive(d, p.pattern, p.bytes);
    std::printf("| %s | %s | %.1f | %.1f | %.0f %% | %.0f %% |\n", hw.chip.name.c_str(), p.name, peak, o.gbps,
                100 * o.gbps / peak, 100 * o.hit_rate);
  }
}

}  // namespace

// SystemC owns main(); this tool runs no simulation, only the channel model.
int sc_main(int argc, char** argv) {
  std::printf("| preset | pattern | peak GB/s | achieved GB/s | of peak | row hits |\n|---|---|---|---|---|---|\n");
  for (int i = 1; i < argc; ++i) run_preset(argv[i]);
  return 0;
}
