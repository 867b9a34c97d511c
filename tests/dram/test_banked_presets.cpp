#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "models/banked_dram/BankTimingState.h"
#include "models/banked_dram/BankedChannel.h"
#include "dram/BankedTestSupport.h"

using namespace npusim;

// The command sequences of test_banked_timing.cpp on every preset, each expected time written
// as the sum of the timings the sequence pays (one formula per rule of the README's table).

using namespace banked_test;

namespace {

const char* const kPresets[] = {"ddr4-3200", "ddr5-4800", "lpddr5-6400", "hbm2", "hbm3"};

}  // namespace

TEST_CASE("every preset: row hit, miss and conflict latencies", "[dram][banked][presets]") {
  for (const char* name : kPresets) {
    INFO(name);
    const BankedDramConfig t = preset(name);
    const DramClock burst = t.burst_length / t.transfers_per_clock;
    BankedChannel ch(t);
    CHECK(ch.read({at(0, 0, 7)}, 100) == 100 + t.trcd + t.cl + burst);
    CHECK(ch.read({at(0, 0, 7)}, 1000) == 1000 + t.cl + burst);
    CHECK(ch.read({at(0, 0, 9)}, 2000) == 2000 + t.trp + t.trcd + t.cl + burst);
  }
}

TEST_CASE("every preset: the fifth ACT waits for tFAW", "[dram][banked][presets]") {
  for (const char* name : kPresets) {
    INFO(name);
    const BankedDramConfig t = preset(name);
    BankTimingState s(t);
    for (std::uint32_t k = 0; k < 4; ++k) CHECK(go(s, at(k % t.bank_groups, k / t.bank_groups, 1), false, 0).act == k * t.trrd_s);
    const std::uint32_t group = 4 % t.bank_groups, bank = 4 / t.bank_groups;
    const DramClock rrd = (group == 3 % t.bank_groups) ? t.trrd_l : t.trrd_s;
    CHECK(go(s, at(group, bank, 1), false, 0).act == std::max<DramClock>(3 * t.trrd_s + rrd, t.tfaw));
  }
}

TEST_CASE("every preset: a refresh blocks a read until tRP + tRFC after tREFI", "[dram][banked][presets]") {
  for (const char* name : kPresets) {
    INFO(name);
    const BankedDramConfig t = preset(name);
    BankTimingState s(t);
    const BurstCommands c = s.plan(at(0, 0, 1), false, t.trefi - 1);
    CHECK(c.act == DramClock{t.trefi} + t.trp + t.trfc);
    CHECK(c.column == c.act + t.trcd);
  }
}

TEST_CASE("every preset: tWTR_S/L after a write, tCCD_S/L between reads", "[dram][banked][presets]") {
  for (const char* name : kPresets) {
    INFO(name);
    const BankedDramConfig t = preset(name);
    const DramClock burst = t.burst_length / t.transfers_per_clock;
    BankTimingState w(t);
    const DramClock first = go(w, at(1, 0, 1), true, 0).column;
    const DramClock write = go(w, at(0, 0, 1), true, 0).column;
    CHECK(write == std::max<DramClock>(t.trrd_s + t.trcd, t.trcd + t.tccd_s));
    // Bank group 2 wrote nothing: tWTR_S after the last WRITE.
    CHECK(w.plan(at(2, 0, 1), false, 0).column == write + t.cwl + burst + t.twtr_s);
    CHECK(w.plan(at(0, 0, 1), false, 0).column == write + t.cwl + burst + t.twtr_l);
    // Bank group 1: tWTR_L after its own (earlier) WRITE, tWTR_S after the later one.
    CHECK(w.plan(at(1, 0, 1), false, 0).column ==
          std::max(first + t.cwl + burst + t.twtr_l, write + t.cwl + burst + t.twtr_s));
    BankTimingState r(t);
    go(r, at(0, 0, 1), false, 0);
    const DramClock second = go(r, at(1, 0, 1), false, 0).column;
    CHECK(go(r, at(0, 0, 1), false, 0).column == second + t.tccd_s);
    CHECK(go(r, at(0, 0, 1), false, 0).column == second + t.tccd_s + t.tccd_l);
  }
}
