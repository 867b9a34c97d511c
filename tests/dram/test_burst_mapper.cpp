#include <catch2/catch.hpp>

#include "dram/BankedTestSupport.h"
#include "models/banked_dram/BankedChannel.h"
#include "models/banked_dram/BurstMapper.h"
#include "models/dram/DramAddressMap.h"

using namespace npusim;
using namespace banked_test;

// The bit layout models/banked_dram/README.md documents, built by hand.
TEST_CASE("DDR4-3200 map: byte 0-5, bank group 6-7, column 8-14, bank 15-16, row 17-32", "[dram][banked]") {
  BankedDramConfig cfg = preset("ddr4-3200");
  const std::uint64_t row = 0x1234, bank = 3, column = 5, group = 2, byte = 13;
  const std::uint64_t address = row << 17 | bank << 15 | column << 8 | group << 6 | byte;
  const BurstPlace p = BurstMapper(cfg).place(address);
  CHECK(p.row == row);
  CHECK(p.bank == bank);
  CHECK(p.column == column);
  CHECK(p.bank_group == group);
  CHECK(p.rank == 0);
  cfg.bank_group_xor = true;  // bank group 2 XOR the row's low two bits (0b01 for row 0x1235)
  CHECK(BurstMapper(cfg).place(address + (std::uint64_t{1} << 17)).bank_group == 3);
}

TEST_CASE("another map order moves each field to its place, rank included", "[dram][banked]") {
  BankedDramConfig cfg = preset("ddr4-3200");
  cfg.ranks = 2;
  cfg.address_map = "row:bank:bankgroup:column:rank";  // byte 0-5, rank 6, column 7-13, group 14-15, bank 16-17
  const std::uint64_t address = std::uint64_t{9} << 18 | 1 << 16 | 3 << 14 | 100 << 7 | 1 << 6;
  const BurstPlace p = BurstMapper(cfg).place(address);
  CHECK(p.rank == 1);
  CHECK(p.column == 100);
  CHECK(p.bank_group == 3);
  CHECK(p.bank == 1);
  CHECK(p.row == 9);
}

TEST_CASE("a channel's local address packs its interleave stripes end to end", "[dram]") {
  DramConfig d{};
  d.channels = 4;
  d.interleave_bytes = 256;
  d.capacity_bytes = 1 << 20;
  const DramAddressMap map(d);
  CHECK(map.channel_of(0x1234) == 2);
  CHECK(map.local_address(0x1234) == 4 * 256 + 0x34);
}

TEST_CASE("two ranks: a rank switch costs burst + turnaround, and tFAW counts each rank alone", "[dram][banked]") {
  BankedDramConfig cfg = preset("ddr4-3200");
  cfg.ranks = 2;
  BankTimingState s(cfg);
  BurstPlace r1 = at(0, 0, 1);
  r1.rank = 1;
  CHECK(go(s, at(0, 0, 1), false, 0).column == 22);
  // Rank 1's ACT needs no tRRD after rank 0's; its READ waits burst 4 + turnaround 2 after rank 0's READ at 22: 28.
  const BurstCommands c = go(s, r1, false, 0);
  CHECK(c.act == 0);
  CHECK(c.column == 28);
}
