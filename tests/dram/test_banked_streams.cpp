#include <catch2/catch.hpp>

#include <random>
#include <utility>
#include <vector>

#include "models/banked_dram/BankedChannel.h"
#include "models/banked_dram/BurstMapper.h"
#include "dram/BankedTestSupport.h"

using namespace npusim;
using namespace banked_test;

// Streams of row hits (BankedChannel::stream_step) against the command-by-command search:
// random traffic through both must give every command at the same clock and the same
// answers, counters, latencies and bus spans.
namespace {

using Scheduling = BankedChannel::Scheduling;

// Everything a channel tells the outside, and every command it issued.
struct Trace {
  std::vector<DramClock> answers;
  std::vector<std::pair<DramClock, DramClock>> spans;
  std::vector<BankedChannel::Issued> commands;
  std::vector<std::pair<DramClock, std::uint64_t>> latencies;
  std::vector<std::uint64_t> counts;
  std::uint64_t streamed = 0;
};

// One booking's burst addresses: a sequential run, a stride, or random bursts.
std::vector<std::uint64_t> booking_addresses(std::mt19937_64& random, std::uint64_t burst) {
  static const std::uint64_t strides[] = {1, 1, 1, 2, 4, 16, 64, 128, 512};
  const std::uint64_t base = random() % (std::uint64_t{1} << 28) / burst * burst, kind = random() % 4;
  const std::uint64_t stride = strides[random() % 9] * burst, count = 1 + random() % (kind == 0 ? 600 : 120);
  std::vector<std::uint64_t> addresses;
  for (std::uint64_t i = 0; i < count; ++i)
    addresses.push_back(kind == 3 ? random() % (std::uint64_t{1} << 28) / burst * burst : base + i * stride);
  return addresses;
}

void finish_trace(const BankedChannel& ch, Trace& t) {
  const ChannelCounters& n = ch.counters();
  t.counts = {n.read_bursts, n.write_bursts, n.row_hits,  n.row_misses, n.row_conflicts, n.turnarounds, n.acts,
              n.pres,        n.refreshes,    n.read_wait, n.write_wait, n.last_data};
  n.read_latency.for_each([&](DramClock l, std::uint64_t c) { t.latencies.emplace_back(l, c); });
  t.streamed = ch.streamed_commands();
}

// A channel that logs its commands into `trace`, and its preset's address mapper.
struct Rig {
  BankedChannel ch;
  BurstMapper mapper;
  Trace trace;
  Rig(const BankedDramConfig& cfg, Scheduling scheduling) : ch(cfg, scheduling), mapper(cfg) { ch.log_commands(&trace.commands); }
};

// Bookings of reads and writes with idle gaps between them (some longer than a refresh period).
Trace drive_bookings(const BankedDramConfig& cfg, Scheduling scheduling, unsigned seed) {
  Rig rig(cfg, scheduling);
  BankedChannel& ch = rig.ch;
  const BurstMapper& mapper = rig.mapper;
  Trace& t = rig.trace;
  std::mt19937_64 random(seed);
  DramClock arrival = 0;
  for (int booking = 0; booking < 300; ++booking) {
    std::vector<BurstPlace> bursts;
    for (std::uint64_t a : booking_addresses(random, mapper.burst_bytes())) bursts.push_back(mapper.place(a));
    t.answers.push_back(random() % 4 == 0 ? ch.write(bursts, arrival) : ch.read(bursts, arrival));
    t.spans.push_back(ch.take_bus_span());
    const std::uint64_t gap = random() % 8;
    arrival = (gap == 0 ? t.answers.back() : arrival) + (gap == 7 ? random() % 20000 : random() % 600);
  }
  finish_trace(ch, t);
  return t;
}

// A stream handed over at once (bench/dram_patterns): runs of reads and writes, served by finish().
Trace drive_submitted(const BankedDramConfig& cfg, Scheduling scheduling, unsigned seed) {
  Rig rig(cfg, scheduling);
  std::mt19937_64 random(seed);
  for (int run = 0; run < 60; ++run) {
    const bool write = random() % 3 == 0;
    const DramClock arrival = random() % 2 == 0 ? 0 : random() % 200000;
    for (std::uint64_t a : booking_addresses(random, rig.mapper.burst_bytes())) rig.ch.submit(rig.mapper.place(a), write, arrival);
  }
  rig.ch.finish();
  rig.trace.spans.push_back(rig.ch.take_bus_span());
  finish_trace(rig.ch, rig.trace);
  return rig.trace;
}

void require_same(const Trace& streamed, const Trace& searched) {
  CHECK(streamed.commands.size() == searched.commands.size());
  CHECK(streamed.commands == searched.commands);
  CHECK(streamed.answers == searched.answers);
  CHECK(streamed.spans == searched.spans);
  CHECK(streamed.counts == searched.counts);
  CHECK(streamed.latencies == searched.latencies);
  CHECK(searched.streamed == 0);
}

// The presets as shipped and varied: refresh every 3,000 clocks (all-bank and per-bank), two
// ranks, a closed page.
std::vector<std::pair<std::string, BankedDramConfig>> variants() {
  std::vector<std::pair<std::string, BankedDramConfig>> out;
  for (const char* name : {"ddr4-3200", "ddr5-4800", "lpddr5-6400", "hbm2", "hbm3"}) {
    BankedDramConfig cfg = preset(name);
    out.emplace_back(name, cfg);
    cfg.trefi = 3000;
    out.emplace_back(std::string(name) + " trefi 3000", cfg);
    cfg.refresh_mode = RefreshMode::PerBank;
    if (cfg.trfc_pb == 0) cfg.trfc_pb = 200;
    out.emplace_back(std::string(name) + " per-bank refresh", cfg);
  }
  BankedDramConfig two_ranks = preset("ddr4-3200");
  two_ranks.ranks = 2, two_ranks.trefi = 5000;
  out.emplace_back("ddr4-3200 two ranks", two_ranks);
  BankedDramConfig closed = preset("hbm2");
  closed.page_policy = PagePolicy::Closed;
  out.emplace_back("hbm2 closed page", closed);
  return out;
}

}  // namespace

TEST_CASE("Streams of row hits issue every command at the clock the command-by-command search gives",
          "[dram][banked][controller][streams][heavy]") {
  std::uint64_t streamed = 0, commands = 0;
  for (const auto& [name, cfg] : variants()) {
    for (unsigned seed : {1u, 2u, 3u}) {
      INFO(name << " seed " << seed);
      const Trace a = drive_bookings(cfg, Scheduling::Streamed, seed), b = drive_bookings(cfg, Scheduling::PerCommand, seed);
      require_same(a, b);
      const Trace c = drive_submitted(cfg, Scheduling::Streamed, seed), d = drive_submitted(cfg, Scheduling::PerCommand, seed);
      require_same(c, d);
      streamed += a.streamed + c.streamed, commands += a.commands.size() + c.commands.size();
    }
  }
  // The streams did part of the work (this traffic is half random bursts and strides).
  CHECK(streamed * 10 > commands);
}

TEST_CASE("A long sequential read goes out in a stream from its second burst on", "[dram][banked][controller][streams]") {
  const BankedDramConfig cfg = preset("ddr4-3200");
  BankedChannel ch(cfg);
  const BurstMapper mapper(cfg);
  std::vector<BurstPlace> bursts;
  for (std::uint64_t i = 0; i < 256; ++i) bursts.push_back(mapper.place(i * 64));
  ch.read(bursts, 0);
  // Four bank groups each open a row (ACTs tRRD_S apart); the first READ is searched for,
  // every other READ goes out in the stream.
  CHECK(ch.counters().row_misses == 4);
  CHECK(ch.streamed_commands() >= 250);
}
