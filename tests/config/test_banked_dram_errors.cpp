#include <catch2/catch.hpp>

#include <string>

#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"
#include "TestPaths.h"

using namespace npusim;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

// The DDR4-3200 preset with `banked` keys changed; returns the InputError it must raise.
InputError banked_rejection(const json& banked) {
  json doc = load_config_json(std::string(NPUSIM_TEST_DIR) + "/../configs/dram/ddr4-3200.json");
  doc.erase("extends");
  for (const auto& item : banked.items()) doc["chip"]["dram"]["banked"][item.key()] = item.value();
  try {
    parse_hardware_config(doc, "chip.json");
  } catch (const InputError& e) {
    return e;
  }
  FAIL("config was accepted: " << banked.dump());
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("banked DRAM: tRC shorter than tRAS + tRP is refused naming trc", "[config][banked]") {
  InputError e = banked_rejection({{"trc", 73}});
  CHECK(e.location() == "/chip/dram/banked/trc");
  CHECK_THAT(e.reason(), Contains("tRAS + tRP (52 + 22)"));
}

TEST_CASE("banked DRAM: a bank count that is no power of two is refused naming it", "[config][banked]") {
  CHECK(banked_rejection({{"banks_per_group", 3}}).location() == "/chip/dram/banked/banks_per_group");
  CHECK(banked_rejection({{"bank_groups", 6}}).location() == "/chip/dram/banked/bank_groups");
}

TEST_CASE("banked DRAM: an address map naming a field twice or not at all is refused", "[config][banked]") {
  InputError twice = banked_rejection({{"address_map", "row:bank:bank:column:rank"}});
  CHECK(twice.location() == "/chip/dram/banked/address_map");
  CHECK_THAT(twice.reason(), Contains("names 'bank' twice"));
  CHECK_THAT(banked_rejection({{"address_map", "row:bank:column"}}).reason(), Contains("each of row"));
  CHECK_THAT(banked_rejection({{"address_map", "row:bank:bankgroup:col:rank"}}).reason(), Contains("'col' is no field"));
}

TEST_CASE("banked DRAM: watermarks must sit below the queue and each other", "[config][banked]") {
  CHECK(banked_rejection({{"write_high", 32}}).location() == "/chip/dram/banked/write_high");
  CHECK(banked_rejection({{"write_low", 24}}).location() == "/chip/dram/banked/write_low");
}

TEST_CASE("banked DRAM: more capacity than the banks hold is refused naming capacity_bytes", "[config][banked]") {
  CHECK(banked_rejection({{"rows", 16384}}).location() == "/chip/dram/capacity_bytes");
}

TEST_CASE("every DRAM preset in configs/dram loads", "[config][banked]") {
  for (const char* name : {"ddr4-3200", "ddr5-4800", "lpddr5-6400", "hbm2", "hbm3"}) {
    const HardwareConfig hw = load_hardware_config(std::string(NPUSIM_TEST_DIR) + "/../configs/dram/" + name + ".json");
    CHECK(hw.chip.dram.model == DramModel::Banked);
  }
}

TEST_CASE("banked DRAM: a command current below the standby it adds to is refused naming it", "[config][banked]") {
  InputError e = banked_rejection({{"idd4r", 40}});
  CHECK(e.location() == "/chip/dram/banked/idd4r");
  CHECK_THAT(e.reason(), Contains("below IDD3N (52 mA)"));
  CHECK(banked_rejection({{"idd3n", 30}}).location() == "/chip/dram/banked/idd3n");
}

TEST_CASE("banked DRAM: per-bank refresh without a tRFCpb (DDR4 has none) is refused naming trfc_pb", "[config][banked]") {
  InputError e = banked_rejection({{"refresh_mode", "per_bank"}});
  CHECK(e.location() == "/chip/dram/banked/trfc_pb");
}
