#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "models/dram/DramAddressMap.h"
#include "models/dram/DramStorage.h"

using namespace npusim;

namespace {
DramConfig dram(std::uint32_t channels, std::uint64_t interleave, std::uint64_t capacity) {
  DramConfig c{};
  c.channels = channels;
  c.bytes_per_cycle = 32;
  c.latency = 100;
  c.interleave_bytes = interleave;
  c.capacity_bytes = capacity;
  return c;
}
}  // namespace

TEST_CASE("interleaved DRAM rotates blocks over the channels", "[dram]") {
  DramAddressMap map(dram(4, 256, 1 << 20));
  for (std::uint64_t a = 0; a < 8192; a += 64) REQUIRE(map.channel_of(a) == (a / 256) % 4);
  CHECK(map.bytes_in_block(0) == 256);
  CHECK(map.bytes_in_block(300) == 212);
}

TEST_CASE("non-interleaved DRAM gives each channel one contiguous slice", "[dram]") {
  DramAddressMap map(dram(2, 0, 1000));
  CHECK(map.channel_of(0) == 0);
  CHECK(map.channel_of(499) == 0);
  CHECK(map.channel_of(500) == 1);
  CHECK(map.bytes_in_block(100) == 400);
}

TEST_CASE("DRAM storage reads back what was written across page edges, zeros elsewhere", "[dram]") {
  DramStorage storage;
  std::vector<std::uint8_t> data(200000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 7 + 3);
  storage.write(65000, data.data(), data.size());
  std::vector<std::uint8_t> back(data.size());
  storage.read(65000, back.data(), back.size());
  CHECK(back == data);
  std::uint8_t untouched[16];
  storage.read(1ull << 33, untouched, 16);
  for (auto b : untouched) CHECK(b == 0);
}

// add_channel_shares sums whole stripes in closed form; the reference asks channel_of
// for every byte of the range.
TEST_CASE("channel shares of random ranges equal a byte-by-byte count", "[dram]") {
  std::mt19937_64 rng(17);
  for (const auto& [channels, interleave] : std::vector<std::pair<std::uint32_t, std::uint64_t>>{
           {4, 256}, {3, 64}, {1, 256}, {8, 1024}, {2, 0}, {5, 0}}) {
    DramAddressMap map(dram(channels, interleave, 1 << 20));
    for (int trial = 0; trial < 200; ++trial) {
      const std::uint64_t address = rng() % (1 << 19), bytes = rng() % 20000;
      std::vector<std::uint64_t> shares(channels, 0), reference(channels, 0);
      map.add_channel_shares(address, bytes, shares);
      for (std::uint64_t a = address; a < address + bytes; ++a) ++reference[map.channel_of(a)];
      INFO("channels " << channels << ", interleave " << interleave << ", [" << address << ", +" << bytes << ")");
      REQUIRE(shares == reference);
    }
  }
}

// Dram books a pitched transaction's distinct row splits once each (issue 36): every row
// must split over the channels exactly as the row a whole number of share periods before it.
TEST_CASE("rows a share period apart split over the channels alike", "[dram]") {
  std::mt19937_64 rng(36);
  for (const auto& [channels, interleave] : std::vector<std::pair<std::uint32_t, std::uint64_t>>{
           {4, 256}, {3, 64}, {1, 256}, {8, 1024}, {2, 0}, {5, 0}}) {
    DramAddressMap map(dram(channels, interleave, 1 << 24));
    for (int trial = 0; trial < 100; ++trial) {
      const std::uint64_t address = rng() % (1 << 16), row_bytes = 1 + rng() % 3000, rows = 1 + rng() % 40;
      const std::uint64_t pitch = row_bytes + (trial % 3 == 0 ? 0 : rng() % 5000);
      const std::uint64_t period = map.share_period(pitch, rows);
      REQUIRE(period >= 1);
      REQUIRE(period <= rows);
      for (std::uint64_t r = 0; r < rows; ++r) {
        std::vector<std::uint64_t> row(channels, 0), first(channels, 0);
        map.add_channel_shares(address + r * pitch, row_bytes, row);
        map.add_channel_shares(address + (r % period) * pitch, row_bytes, first);
        INFO("channels " << channels << ", interleave " << interleave << ", pitch " << pitch << ", row " << r);
        REQUIRE(row == first);
      }
    }
  }
}
