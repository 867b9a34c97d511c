// Issue 42: refresh settings that `validate` accepted made `run` spin for ever in the
// planner. The config check now proves every refresh period leaves room for one access
// (tRP + tRCD + max(CL, CWL) + a burst), all-bank and per-bank, on every preset; what it
// accepts at the boundary plans every burst; and the planner's own bound turns a wrong
// proof into an internal error instead of a hang.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "config/ScratchDir.h"
#include "dram/BankedTestSupport.h"
#include "models/banked_dram/BankTimingState.h"
#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;
using namespace banked_test;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

const char* const kPresets[] = {"ddr4-3200", "ddr5-4800", "lpddr5-6400", "hbm2", "hbm3"};

std::string preset_path(const std::string& name) {
  return std::string(NPUSIM_TEST_DIR) + "/../configs/dram/" + name + ".json";
}

// A user's config extending `preset` with `banked` keys; the InputError loading it raises.
InputError refusal(const ScratchDir& dir, const std::string& preset, const json& banked) {
  const json doc = {{"extends", preset_path(preset)}, {"chip", {{"dram", {{"banked", banked}}}}}};
  const std::string path = dir.write("user.json", doc.dump());
  try {
    load_hardware_config(path);
  } catch (const InputError& e) {
    CHECK(e.file() == path);  // the user's file, never the preset it extends
    return e;
  }
  FAIL("accepted: " << banked.dump());
  throw std::logic_error("unreachable");
}

bool accepted(const ScratchDir& dir, const std::string& preset, const json& banked) {
  const json doc = {{"extends", preset_path(preset)}, {"chip", {{"dram", {{"banked", banked}}}}}};
  try {
    load_hardware_config(dir.write("user.json", doc.dump()));
    return true;
  } catch (const InputError&) {
    return false;
  }
}

// The shortest tREFI the check must accept: one refresh window plus one access.
std::uint64_t least_trefi(const BankedDramConfig& b, bool per_bank) {
  return std::uint64_t{b.trp} + (per_bank ? b.trfc_pb : b.trfc) + b.trp + b.trcd + std::max(b.cl, b.cwl) +
         b.burst_clocks();
}

}  // namespace

TEST_CASE("refresh progress: the audit's hanging DDR4 settings are refused naming the key the user set",
          "[dram][banked][refresh-progress]") {
  ScratchDir dir;
  // tREFI 600 passed the old tREFI > tRFC + tRP check (600 > 582) and left 18 clocks, less than tRCD.
  InputError trefi = refusal(dir, "ddr4-3200", {{"trefi", 600}});
  CHECK(trefi.location() == "/chip/dram/banked/trefi");
  CHECK_THAT(trefi.reason(), Contains("leaves 18 clocks between refreshes") && Contains("needs 70"));
  CHECK(refusal(dir, "ddr4-3200", {{"trcd", 999999}}).location() == "/chip/dram/banked/trcd");
  CHECK(refusal(dir, "ddr4-3200", {{"refresh_mode", "per_bank"}, {"trfc_pb", 12460}}).location() ==
        "/chip/dram/banked/trfc_pb");
  CHECK(refusal(dir, "ddr4-3200", {{"cl", 20000}, {"cwl", 16}}).location() == "/chip/dram/banked/cl");
}

TEST_CASE("refresh progress: on every preset, all-bank and per-bank, one clock less than the room is refused",
          "[dram][banked][refresh-progress]") {
  ScratchDir dir;
  for (const char* name : kPresets) {
    const BankedDramConfig b = preset(name);
    for (const bool per_bank : {false, true}) {
      if (per_bank && b.trfc_pb == 0) continue;  // DDR4 has no per-bank refresh
      INFO(name << (per_bank ? " per_bank" : " all_bank"));
      const json mode = {{"refresh_mode", per_bank ? "per_bank" : "all_bank"}};
      const std::uint64_t least = least_trefi(b, per_bank);
      json at = mode, below = mode;
      at["trefi"] = least, below["trefi"] = least - 1;
      CHECK(accepted(dir, name, at));
      CHECK(refusal(dir, name, below).location() == "/chip/dram/banked/trefi");
      // The same room taken by the refresh itself names the refresh key.
      json longer = mode;
      longer[per_bank ? "trfc_pb" : "trfc"] = (per_bank ? b.trfc_pb : b.trfc) + b.trefi - least + 1;
      CHECK(refusal(dir, name, longer).location() == (per_bank ? "/chip/dram/banked/trfc_pb" : "/chip/dram/banked/trfc"));
    }
  }
}

TEST_CASE("refresh progress: at the least accepted tREFI every burst is planned between refreshes",
          "[dram][banked][refresh-progress]") {
  for (const char* name : kPresets) {
    for (const bool per_bank : {false, true}) {
      BankedDramConfig b = preset(name);
      if (per_bank && b.trfc_pb == 0) continue;
      INFO(name << (per_bank ? " per_bank" : " all_bank"));
      b.refresh_mode = per_bank ? RefreshMode::PerBank : RefreshMode::AllBank;
      b.trefi = std::uint32_t(least_trefi(b, per_bank));
      BankTimingState s(b);
      // Misses, conflicts and hits arriving at every clock of several refresh periods.
      std::uint64_t planned = 0;
      for (DramClock t = 0; t < 4 * DramClock{b.trefi}; t += 3) {
        const BurstCommands c = go(s, at(std::uint32_t(t % b.bank_groups), 0, t % 5), t % 7 == 0, t);
        CHECK(c.column >= t);
        ++planned;
      }
      CHECK(planned > 0);
    }
  }
}

TEST_CASE("refresh progress: a timing set the check would refuse ends the planner in an internal error, not a hang",
          "[dram][banked][refresh-progress]") {
  BankedDramConfig b = preset("ddr4-3200");
  b.trefi = 600;  // 18 clocks between refreshes: no ACT + tRCD fits
  BankTimingState s(b);
  go(s, at(0, 0, 1), false, 0);  // before the first refresh: fits
  CHECK_THROWS_WITH(s.plan(at(0, 0, 2), false, 590), Contains("should have refused these timings"));
}

TEST_CASE("cross checks name the user's file and the key it wrote, not the preset's (tWTR_L, tRRD_L, tRAS)",
          "[dram][banked][refresh-progress]") {
  ScratchDir dir;
  CHECK(refusal(dir, "ddr4-3200", {{"twtr_l", 2}}).location() == "/chip/dram/banked/twtr_l");
  CHECK(refusal(dir, "ddr4-3200", {{"trrd_l", 2}}).location() == "/chip/dram/banked/trrd_l");
  CHECK(refusal(dir, "ddr4-3200", {{"tccd_s", 9}}).location() == "/chip/dram/banked/tccd_s");
  CHECK(refusal(dir, "ddr4-3200", {{"tras", 60}}).location() == "/chip/dram/banked/tras");
  CHECK(refusal(dir, "ddr4-3200", {{"write_queue", 16}}).location() == "/chip/dram/banked/write_queue");
  CHECK(refusal(dir, "ddr4-3200", {{"idd3n", 70}}).location() == "/chip/dram/banked/idd3n");
  CHECK(refusal(dir, "ddr4-3200", {{"trp", 60}}).location() == "/chip/dram/banked/trp");
}
