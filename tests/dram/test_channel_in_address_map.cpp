#include <catch2/catch.hpp>

#include <random>

#include "models/banked_dram/BurstMapper.h"
#include "models/dram/DramAddressMap.h"
#include "dram/BankedTestSupport.h"
#include "sim/config/BankedDramChecks.h"
#include "sim/common/InputError.h"
#include "TestPaths.h"

using namespace npusim;

namespace {

DramConfig ddr4_with_map(const std::string& map) {
  DramConfig d = npusim::load_hardware_config(std::string(NPUSIM_TEST_DIR) + "/../configs/dram/ddr4-3200.json").chip.dram;
  d.banked.address_map = map;
  d.interleave_bytes = 4096;  // ignored once the map names the channel
  return d;
}

std::uint64_t bits(std::uint64_t a, unsigned low, unsigned width) { return (a >> low) & ((1ull << width) - 1); }

}  // namespace

// DDR4-3200 preset, 4 channels, `row:rank:bank:column:channel:bankgroup`, by hand from the
// least significant bit of the chip address: 0–5 byte in the 64-B burst, 6–7 bank group (4),
// 8–9 channel (4), 10–16 column (128 bursts a row), 17–18 bank (4), no rank bits (1 rank),
// 19 and up row.
TEST_CASE("A channel field in the address map picks the channel by its bits", "[dram][banked][address_map]") {
  const DramConfig d = ddr4_with_map("row:rank:bank:column:channel:bankgroup");
  check_banked_dram(d, "test.json");
  CHECK(channel_interleave_bytes(d) == 256);
  const DramAddressMap map(d);
  const BurstMapper mapper(d.banked);
  std::mt19937_64 random(3);
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t a = random() % d.capacity_bytes;
    const BurstPlace p = mapper.place(map.local_address(a));
    CHECK(map.channel_of(a) == bits(a, 8, 2));
    CHECK(p.bank_group == bits(a, 6, 2));
    CHECK(p.column == bits(a, 10, 7));
    CHECK(p.bank == bits(a, 17, 2));
    CHECK(p.row == (a >> 19));
  }
}

// With the channel field first after the row (`row:channel:rank:bank:column:bankgroup`) each
// channel holds whole 128 KiB blocks: 64-B bursts × 4 bank groups × 128 columns × 4 banks.
TEST_CASE("A channel field high in the map gives each channel large blocks", "[dram][banked][address_map]") {
  const DramConfig d = ddr4_with_map("row:channel:rank:bank:column:bankgroup");
  CHECK(channel_interleave_bytes(d) == 64ull * 4 * 128 * 4);
  const DramAddressMap map(d);
  CHECK(map.channel_of(128 * 1024 - 1) == 0);
  CHECK(map.channel_of(128 * 1024) == 1);
  CHECK(map.channel_of(4 * 128 * 1024) == 0);
  // Without the field the channel still comes from interleave_bytes.
  const DramConfig plain = ddr4_with_map("row:rank:bank:column:bankgroup");
  CHECK(channel_interleave_bytes(plain) == 4096);
}

TEST_CASE("A channel field needs a power-of-two channel count and appears once", "[dram][banked][address_map]") {
  DramConfig d = ddr4_with_map("row:rank:bank:column:channel:bankgroup");
  d.channels = 3;
  CHECK_THROWS_WITH(check_banked_dram(d, "t.json"), Catch::Contains("/chip/dram/channels"));
  d = ddr4_with_map("row:channel:bank:column:channel:bankgroup");
  CHECK_THROWS_WITH(check_banked_dram(d, "t.json"), Catch::Contains("names 'channel' twice"));
}
