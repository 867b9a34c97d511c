#pragma once
#include <string>

#include "models/banked_dram/BankTimingState.h"
#include "sim/config/ConfigLoader.h"
#include "TestPaths.h"

// Shared by the banked DRAM tests: a preset's banked section, a burst's place, and one
// burst planned and booked.
namespace banked_test {

inline npusim::BankedDramConfig preset(const std::string& name) {
  return npusim::load_hardware_config(std::string(NPUSIM_TEST_DIR) + "/../configs/dram/" + name + ".json")
      .chip.dram.banked;
}

inline npusim::BurstPlace at(std::uint32_t group, std::uint32_t bank, std::uint64_t row, std::uint32_t column = 0) {
  npusim::BurstPlace p;
  p.bank_group = group;
  p.bank = bank;
  p.row = row;
  p.column = column;
  return p;
}

inline npusim::BurstCommands go(npusim::BankTimingState& s, const npusim::BurstPlace& p, bool write,
                                npusim::DramClock arrival) {
  const npusim::BurstCommands c = s.plan(p, write, arrival);
  s.commit(p, write, c);
  return c;
}

}  // namespace banked_test
