// Pattern benchmark of the banked DRAM model (bench/README.md): one channel of a preset,
// six access patterns, achieved bandwidth and row-hit rate as a markdown table.
//   build/dram_patterns configs/dram/ddr4-3200.json [more presets...]
#include <cstdio>
#include <algorithm>
#include <functional>
#include <random>
#include <string>

#include <systemc>

#include "models/banked_dram/BankedDram.h"
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

// Every request arrives at once (a saturated controller): each group of `read_queue` requests
// is handed over together, its reads as one booking (FR-FCFS reorders inside it) and its
// writes as another. Bandwidth counts the bytes asked for, not the whole bursts moved.
Outcome drive(DramConfig dram, const Pattern& pattern, std::uint64_t request_bytes) {
  dram.channels = 1;
  BankedDram channel(dram, dram.banked.clock_mhz);  // chip clock = DRAM clock: no rounding
  std::mt19937_64 random(1);
  const std::uint64_t requests = kBytes / request_bytes, group = dram.banked.read_queue;
  for (std::uint64_t first = 0; first < requests; first += group) {
    for (const bool write : {false, true}) {
      std::mt19937_64 replay = random;  // both passes see the same random addresses
      channel.begin();
      for (std::uint64_t i = first; i < std::min(requests, first + group); ++i) {
        const Request r = pattern(i, replay);
        if (r.write == write) channel.add(0, r.address, r.bytes);
      }
      channel.book(0, write);
      if (write) random = replay;
    }
  }
  const ChannelCounters& n = channel.channel(0).counters();
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
