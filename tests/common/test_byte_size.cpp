// Byte counts in the human tables (issue 35): binary units, exact when whole, else one
// decimal; which fields count bytes is told by their names.
#include <catch2/catch.hpp>

#include <cstdint>

#include "sim/common/ByteSize.h"

using npusim::byte_cell_text;
using npusim::byte_size_text;
using npusim::is_byte_valued;

TEST_CASE("byte_size_text: the largest binary unit reached, whole or to one decimal", "[byte-size]") {
  CHECK(byte_size_text(0) == "0 B");
  CHECK(byte_size_text(1000) == "1000 B");
  CHECK(byte_size_text(1023) == "1023 B");
  CHECK(byte_size_text(1024) == "1 KiB");
  CHECK(byte_size_text(1536) == "1.5 KiB");
  CHECK(byte_size_text(100000) == "97.7 KiB");  // 97.656...
  CHECK(byte_size_text(524288) == "512 KiB");
  CHECK(byte_size_text(4 * 1048576) == "4 MiB");
  CHECK(byte_size_text(26542080) == "25.3 MiB");  // 25.3125
  CHECK(byte_size_text(std::uint64_t(3) << 30) == "3 GiB");
  CHECK(byte_size_text(std::uint64_t(256) << 40) == "256 TiB");
  CHECK(byte_size_text(std::uint64_t(2048) << 40) == "2048 TiB");  // no unit past TiB
}

TEST_CASE("is_byte_valued: bytes, ..._bytes and bytes_..., not rates", "[byte-size]") {
  for (const char* name : {"bytes", "capacity_bytes", "core.nram.capacity_bytes", "peak_occupancy_bytes",
                           "bytes_read", "bytes_written", "ifm.dram_bytes"})
    CHECK(is_byte_valued(name));
  for (const char* name : {"bytes_per_cycle", "dram_bytes_per_cycle", "total_cycles", "macs", "_bytes", "nbytes",
                           "bytesize", "capacity_bytes.count"})
    CHECK_FALSE(is_byte_valued(name));
}

TEST_CASE("byte_cell_text: whole byte counts of byte fields only", "[byte-size]") {
  CHECK(byte_cell_text("capacity_bytes", "524288") == "512 KiB");
  CHECK(byte_cell_text("instruction.bytes", "1536") == "1.5 KiB");
  CHECK_FALSE(byte_cell_text("total_cycles", "524288"));
  CHECK_FALSE(byte_cell_text("capacity_bytes", "-"));        // missing on one side
  CHECK_FALSE(byte_cell_text("capacity_bytes", "1536.5"));   // not a whole count
  CHECK_FALSE(byte_cell_text("capacity_bytes", "-1536"));
  CHECK_FALSE(byte_cell_text("capacity_bytes", ""));
}
