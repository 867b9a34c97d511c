#include <catch2/catch.hpp>

#include <string>

#include "models/banked_dram/BankTimingState.h"
#include "models/banked_dram/BankedChannel.h"
#include "models/banked_dram/CommandEnergy.h"
#include "dram/BankedTestSupport.h"

using namespace npusim;

// Hand-computed command sequences on the DDR4-3200 preset (configs/dram/ddr4-3200.json):
// CL 22, CWL 16, tRCD 22, tRP 22, tRAS 52, tRC 74, tRRD_S 4, tRRD_L 8, tCCD_S 4, tCCD_L 8,
// tFAW 34, tWR 24, tWTR_S 4, tWTR_L 12, tRTP 12, read-to-write 2, tREFI 12480, tRFC 560,
// BL8 = 4 clocks on the bus. Every figure below is worked out from those by hand.

using namespace banked_test;


TEST_CASE("DDR4-3200: a row miss pays tRCD + CL, a hit only CL, a conflict tRP + tRCD + CL", "[dram][banked]") {
  BankedChannel ch(preset("ddr4-3200"));
  // Miss: ACT at 100, READ at 100 + 22, last beat at 122 + 22 + 4.
  CHECK(ch.read({at(0, 0, 7)}, 100) == 148);
  // Hit: the row is open and the bus free: READ at 200, data to 200 + 26.
  CHECK(ch.read({at(0, 0, 7, 1)}, 200) == 226);
  // Conflict: PRE at 300 (tRAS and tRTP long over), ACT at 322, READ at 344, data to 370.
  CHECK(ch.read({at(0, 0, 9)}, 300) == 370);
  const ChannelCounters& n = ch.counters();
  CHECK(n.row_misses == 1);
  CHECK(n.row_hits == 1);
  CHECK(n.row_conflicts == 1);
}

TEST_CASE("DDR4-3200: a conflict right after an ACT waits for tRAS before its PRE", "[dram][banked]") {
  BankTimingState s(preset("ddr4-3200"));
  CHECK(go(s, at(0, 0, 1), false, 0).column == 22);
  // PRE no earlier than ACT + tRAS = 52 (READ + tRTP = 34 is sooner), ACT at 74 (also tRC), READ at 96.
  const BurstCommands c = go(s, at(0, 0, 2), false, 0);
  CHECK(c.outcome == RowOutcome::Conflict);
  CHECK(c.pre == 52);
  CHECK(c.act == 74);
  CHECK(c.column == 96);
}

TEST_CASE("DDR4-3200: four ACTs fit in tFAW and the fifth waits for the window", "[dram][banked]") {
  BankTimingState s(preset("ddr4-3200"));
  // Bank groups 0, 1, 2, 3, 0: tRRD_S = 4 apart, so 0, 4, 8, 12; the fifth at 0 + tFAW = 34, not 16.
  CHECK(go(s, at(0, 0, 1), false, 0).act == 0);
  CHECK(go(s, at(1, 0, 1), false, 0).act == 4);
  CHECK(go(s, at(2, 0, 1), false, 0).act == 8);
  CHECK(go(s, at(3, 0, 1), false, 0).act == 12);
  CHECK(go(s, at(0, 1, 1), false, 0).act == 34);
  // Same bank group back to back: tRRD_L = 8 after the last ACT (34), and 4 + 34 = 38 for tFAW: 42.
  CHECK(go(s, at(0, 2, 1), false, 0).act == 42);
}

TEST_CASE("DDR4-3200: an all-bank refresh blocks a read and closes its row", "[dram][banked]") {
  BankTimingState s(preset("ddr4-3200"));
  CHECK(go(s, at(0, 0, 3), false, 100).column == 122);
  // Refresh 1: PREA at tREFI = 12480, REF at 12502, first ACT at 12502 + 560 = 13062. A read to
  // the open row arriving at 12470 would READ at 12470 < 12480 as a hit: no wait.
  CHECK(s.plan(at(0, 0, 3), false, 12470).column == 12470);
  // A miss arriving at 12470 would ACT at 12470 but READ at 12492, inside the window: after it.
  const BurstCommands miss = s.plan(at(1, 0, 3), false, 12470);
  CHECK(miss.act == 13062);
  CHECK(miss.column == 13084);
  // After the refresh the old row is closed: a miss, not a hit.
  const BurstCommands after = s.plan(at(0, 0, 3), false, 12600);
  CHECK(after.outcome == RowOutcome::Miss);
  CHECK(after.act == 13062);
}

TEST_CASE("DDR4-3200: a read after a write waits tWTR_L in its bank group, tWTR_S in another", "[dram][banked]") {
  BankTimingState s(preset("ddr4-3200"));
  CHECK(go(s, at(1, 0, 1), true, 0).column == 22);  // ACT 0, WRITE 22
  CHECK(go(s, at(0, 0, 1), true, 0).column == 26);  // ACT 4 (tRRD_S), WRITE 26 (tCCD_S)
  // Bank group 2 (no WRITE there): last WRITE (group 0) + CWL + burst + tWTR_S = 26 + 16 + 4 + 4 = 50.
  CHECK(s.plan(at(2, 0, 1), false, 0).column == 50);
  // Bank group 1: its own WRITE at 22 + 16 + 4 + tWTR_L 12 = 54 (JEDEC: tWTR_L counts from the
  // last WRITE of the same bank group, not only from the last WRITE; this test said 50 before).
  CHECK(s.plan(at(1, 0, 1), false, 0).column == 54);
  // Same bank group as that WRITE: 26 + 16 + 4 + tWTR_L 12 = 58.
  CHECK(s.plan(at(0, 0, 1), false, 0).column == 58);
}

TEST_CASE("DDR4-3200: a write after a read waits for the read data plus the turnaround", "[dram][banked]") {
  BankTimingState s(preset("ddr4-3200"));
  CHECK(go(s, at(0, 0, 1), false, 0).column == 22);
  // READ + CL + burst + 2 − CWL = 22 + 22 + 4 + 2 − 16 = 34.
  CHECK(s.plan(at(0, 0, 1), true, 0).column == 34);
}

TEST_CASE("DDR4-3200: column commands are tCCD_L apart in a bank group, tCCD_S across", "[dram][banked]") {
  BankTimingState s(preset("ddr4-3200"));
  CHECK(go(s, at(0, 0, 1), false, 0).column == 22);  // ACT 0
  CHECK(go(s, at(1, 0, 1), false, 0).column == 26);  // ACT 4, READ 4 + 22
  CHECK(go(s, at(0, 0, 1), false, 0).column == 30);  // other group than the last: + tCCD_S
  CHECK(go(s, at(0, 0, 1), false, 0).column == 38);  // same group: + tCCD_L
  CHECK(go(s, at(1, 0, 1), false, 0).column == 42);
}

TEST_CASE("FR-FCFS serves a queued row hit before an older conflict, FCFS does not", "[dram][banked]") {
  BankedDramConfig cfg = preset("ddr4-3200");
  BankedChannel fr(cfg);
  fr.read({at(0, 0, 1), at(0, 0, 2), at(0, 0, 1, 1)}, 0);
  CHECK(fr.counters().row_misses == 1);
  CHECK(fr.counters().row_hits == 1);
  CHECK(fr.counters().row_conflicts == 1);
  cfg.read_queue = 1;
  BankedChannel fcfs(cfg);
  fcfs.read({at(0, 0, 1), at(0, 0, 2), at(0, 0, 1, 1)}, 0);
  CHECK(fcfs.counters().row_hits == 0);
  CHECK(fcfs.counters().row_conflicts == 2);
}

TEST_CASE("Writes wait in the queue until the high watermark, then drain to the low one", "[dram][banked]") {
  BankedChannel ch(preset("ddr4-3200"));  // write_high 24, write_low 8
  ch.read({at(0, 0, 1)}, 0);              // the bus is busy to 48: writes at 10 are not drained at once
  std::vector<BurstPlace> writes;
  for (std::uint32_t i = 0; i < 23; ++i) writes.push_back(at(i % 4, 1, 5, i / 4));
  ch.write(writes, 10);
  CHECK(ch.counters().write_bursts == 0);
  ch.write({at(3, 1, 5, 6)}, 10);
  CHECK(ch.counters().write_bursts == 16);
  CHECK(ch.counters().turnarounds == 1);
}

TEST_CASE("A closed page precharges after every access: the next access to its row is a miss", "[dram][banked]") {
  BankedDramConfig cfg = preset("ddr4-3200");
  cfg.page_policy = PagePolicy::Closed;
  BankTimingState s(cfg);
  CHECK(go(s, at(0, 0, 1), false, 0).column == 22);
  // Auto-precharge at max(ACT + tRAS, READ + tRTP) = 52; next ACT at max(52 + tRP, tRC) = 74.
  const BurstCommands c = go(s, at(0, 0, 1), false, 30);
  CHECK(c.outcome == RowOutcome::Miss);
  CHECK(c.act == 74);
}

// DDR4-3200 preset: VDD 1.2 V, IDD0 58, IDD2N 38, IDD3N 52, IDD4R 170, IDD4W 160, IDD5B 250 mA,
// 8 x8 devices, tCK 0.625 ns. By hand, per channel:
//   ACT 1.2 × (58 − 52) × 52 × 0.625 × 8 = 1872 pJ     PRE 1.2 × (58 − 38) × 22 × 0.625 × 8 = 2640 pJ
//   RD  1.2 × (170 − 52) × 4 × 0.625 × 8 = 2832 pJ     WR  1.2 × (160 − 52) × 4 × 0.625 × 8 = 2592 pJ
//   REF 1.2 × (250 − 52) × 560 × 0.625 × 8 = 665280 pJ background 1.2 × 52 × 0.625 × 8 = 312 pJ a clock
TEST_CASE("DDR4-3200: energy of each command kind from the datasheet currents", "[dram][banked][energy]") {
  const CommandEnergy e = command_energy(preset("ddr4-3200"));
  CHECK(e.act == Approx(1872));
  CHECK(e.pre == Approx(2640));
  CHECK(e.read == Approx(2832));
  CHECK(e.write == Approx(2592));
  CHECK(e.refresh == Approx(665280));
  CHECK(e.background_per_clock == Approx(312));
}

// LPDDR5-6400 with per-bank refresh: tREFI 3125, 16 banks, so bank i's turn is (i + 1)·3125/16
// into each tREFI (bank 0: 195, bank 1: 390); tRP 17, tRFCpb 112, tRCD 15.
TEST_CASE("LPDDR5-6400: a per-bank refresh blocks its own bank only", "[dram][banked]") {
  BankedDramConfig cfg = preset("lpddr5-6400");
  cfg.refresh_mode = RefreshMode::PerBank;
  BankTimingState first(cfg), second(cfg);
  // Bank 0 refreshes at 195: its ACT waits to 195 + 17 + 112 = 324, READ at 339.
  const BurstCommands blocked = first.plan(at(0, 0, 1), false, 195);
  CHECK(blocked.act == 324);
  CHECK(blocked.column == 339);
  // Bank 1's turn is at 390: at 195 it opens at once.
  CHECK(second.plan(at(0, 1, 1), false, 195).act == 195);
  CHECK(first.refreshes_before(194) == 0);
  CHECK(first.refreshes_before(195) == 1);
  CHECK(first.refreshes_before(3125) == 16);
  // One bank's share of the all-bank current: (90 − 15) mA × 1.05 V × 112 × 1.25 ns / 16 banks.
  CHECK(command_energy(cfg).refresh == Approx(689.0625));
}
