#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "models/banked_dram/BankedChannel.h"
#include "models/banked_dram/BurstMapper.h"
#include "dram/BankedTestSupport.h"

using namespace npusim;
using namespace banked_test;

// The controller's rules (models/banked_dram/README.md "Controller") on the DDR4-3200 preset:
// CL 22, CWL 16, tRCD 22, tRP 22, tRAS 52, tRRD_S 4, tFAW 34, tWTR_S 4, read-to-write 2,
// BL8 = 4 clocks on the bus. Figures worked out by hand from those.

TEST_CASE("A queued write goes out in the bus's idle time, not held for the watermark", "[dram][banked][controller]") {
  BankedChannel ch(preset("ddr4-3200"));
  CHECK(ch.read({at(0, 0, 1)}, 0) == 48);  // ACT 0, READ 22, data to 48
  // Accepted at once; the bus is still busy with the read, so it waits in the queue.
  CHECK(ch.write({at(1, 0, 1)}, 10) == 10);
  CHECK(ch.counters().write_bursts == 0);
  // A read of the open row arriving at 1000: the write went out in between (ACT 10, tRRD_S
  // after 0; WRITE at READ + CL + burst + 2 − CWL = 22 + 22 + 4 + 2 − 16 = 34), the read is a
  // hit at 1000 and ends at 1026.
  CHECK(ch.read({at(0, 0, 1, 1)}, 1000) == 1026);
  CHECK(ch.counters().write_bursts == 1);
  CHECK(ch.counters().turnarounds == 2);
}

TEST_CASE("A read arriving behind an idle-time write pays tWTR after it", "[dram][banked][controller]") {
  BankedChannel ch(preset("ddr4-3200"));
  CHECK(ch.read({at(0, 0, 1)}, 0) == 48);
  ch.write({at(1, 0, 1)}, 10);
  // The write's WRITE at 34 is before the read's arrival at 40: it goes first. The read (bank
  // group 0, the write's was 1): 34 + CWL 16 + burst 4 + tWTR_S 4 = 58, data to 58 + 22 + 4 = 84.
  CHECK(ch.read({at(0, 0, 1, 1)}, 40) == 84);
}

namespace {
bool has_latency(const ChannelCounters& n, DramClock wanted) {
  bool found = false;
  n.read_latency.for_each([&](DramClock latency, std::uint64_t) { found = found || latency == wanted; });
  return found;
}
}  // namespace

TEST_CASE("A younger miss goes out while an older conflict waits for tRAS", "[dram][banked][controller]") {
  BankedChannel ch(preset("ddr4-3200"));
  CHECK(ch.read({at(0, 0, 1)}, 0) == 48);  // ACT 0 in bank (0, 0)
  // Older: conflict in bank (0, 0), PRE at ACT + tRAS = 52, ACT 74, READ 96, data to 122.
  // Younger: miss in bank (1, 0), ACT at 1 (tRRD_S after 0 is 4: at 4), READ 26, data to 52.
  // Served first come first served, the younger would wait behind the older's READ.
  CHECK(ch.read({at(0, 0, 2), at(1, 0, 1)}, 1) == 122);
  CHECK(has_latency(ch.counters(), 52 - 1));
  CHECK(has_latency(ch.counters(), 122 - 1));
  CHECK(ch.counters().row_conflicts == 1);
  CHECK(ch.counters().row_misses == 2);
}

// Uniformly random 64-B reads, every request there from the start: each is a row conflict,
// so the rank's ACTs bound the rate: at most 4 per tFAW (34 clocks). A controller that
// overlaps the banks' PRE/ACT comes close to it; one that serves a burst after another
// (ACT, READ, next) does not. Refresh takes (tRP + tRFC) / tREFI = 4.7 %.
TEST_CASE("Random reads with a full queue come within 10 % of the tFAW bound and never beat it", "[dram][banked][controller]") {
  const BankedDramConfig cfg = preset("ddr4-3200");
  BankedChannel ch(cfg);
  const BurstMapper mapper(cfg);
  std::mt19937_64 random(7);
  const std::uint64_t requests = 20000, span = std::uint64_t{1} << 33;
  for (std::uint64_t i = 0; i < requests; ++i) ch.submit(mapper.place(random() % (span / 64) * 64), false, 0);
  ch.finish();
  const double bound = double(requests) / 4 * cfg.tfaw;
  const double refresh = 1 - double(cfg.trp + cfg.trfc) / double(cfg.trefi);
  CHECK(ch.counters().read_bursts == requests);
  CHECK(double(ch.counters().last_data) >= bound);
  CHECK(double(ch.counters().last_data) <= bound / refresh / 0.9);
}

TEST_CASE("Requests handed over in a stream enter bounded queues: the write queue holds at most write_queue",
          "[dram][banked][controller]") {
  BankedDramConfig cfg = preset("ddr4-3200");
  BankedChannel ch(cfg);
  // 40 writes to one bank group: the first 24 set off a drain to 8 as soon as they are in;
  // all 40 have gone out after finish().
  for (std::uint32_t i = 0; i < 40; ++i) ch.submit(at(0, 0, 3, i), true, 0);
  ch.finish();
  CHECK(ch.counters().write_bursts == 40);
  CHECK(ch.counters().row_misses == 1);
  CHECK(ch.counters().row_hits == 39);
  // One ACT at 0, WRITEs tCCD_L = 8 apart from tRCD = 22: the last at 22 + 39 × 8 = 334,
  // its data to 334 + CWL 16 + 4.
  CHECK(ch.counters().last_data == 354);
}

namespace {

// A mixed workload on one channel, as bookings at rising arrivals: sequential reads, random
// reads and writes, strided rows; long enough to cross several refreshes.
std::vector<DramClock> drive_bookings(BankedChannel& ch, const BankedDramConfig& cfg, unsigned seed) {
  const BurstMapper mapper(cfg);
  std::mt19937_64 random(seed);
  std::vector<DramClock> answers;
  DramClock arrival = 0;
  for (int booking = 0; booking < 400; ++booking) {
    std::vector<BurstPlace> bursts;
    const std::uint64_t base = random() % (std::uint64_t{1} << 30) / 64 * 64, kind = random() % 3;
    for (std::uint64_t i = 0; i < 1 + random() % 96; ++i)
      bursts.push_back(mapper.place(kind == 0 ? base + i * 64 : kind == 1 ? random() % (1u << 30) / 64 * 64 : base + i * 4096));
    answers.push_back(random() % 4 == 0 ? ch.write(bursts, arrival) : ch.read(bursts, arrival));
    arrival += random() % 400;
  }
  return answers;
}

}  // namespace

// The controller keeps each bank's offer between commands and works it out again only when
// it could be the next one (BankedChannel::best). The reference works every offer out
// before every command; both must issue the same commands at the same clocks.
TEST_CASE("Kept offers issue exactly what offers worked out anew before every command would", "[dram][banked][controller]") {
  for (const char* name : {"ddr4-3200", "ddr5-4800", "lpddr5-6400", "hbm2"}) {
    BankedDramConfig cfg = preset(name);
    cfg.trefi = 3000;  // several refreshes inside the run
    for (unsigned seed : {1u, 2u}) {
      INFO(name << " seed " << seed);
      BankedChannel kept(cfg, BankedChannel::Scheduling::PerCommand), fresh(cfg, BankedChannel::Scheduling::Exhaustive);
      CHECK(drive_bookings(kept, cfg, seed) == drive_bookings(fresh, cfg, seed));
      const ChannelCounters &a = kept.counters(), &b = fresh.counters();
      CHECK(a.last_data == b.last_data);
      CHECK(a.row_hits == b.row_hits);
      CHECK(a.row_conflicts == b.row_conflicts);
      CHECK(a.acts == b.acts);
      CHECK(a.turnarounds == b.turnarounds);
      CHECK(a.read_wait == b.read_wait);
      CHECK(a.write_wait == b.write_wait);
    }
  }
}
