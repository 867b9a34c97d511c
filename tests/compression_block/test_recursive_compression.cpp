// The recursive compression of seed001 op 1720 (models/compression_block): a hand-worked
// stream, round trips against a straightforward dense scatter, the size break-even
// against dense and against the flat 5-byte format, and streams whose levels disagree.
// The seed gives no numeric example of op 1720 (¶[0206] defers to US 16/726,084), so the
// pinned example is worked by hand from the format as defined in RecursiveCompression.h.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "models/compression_block/RecursiveCompression.h"

using namespace npusim;

namespace {

std::vector<std::int8_t> random_plane(std::uint32_t rows, std::uint32_t cols, double zeros, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution zero(zeros);
  std::uniform_int_distribution<int> value(-128, 126);
  std::vector<std::int8_t> plane(std::size_t(rows) * cols);
  for (auto& v : plane) {
    const int x = value(rng);
    v = zero(rng) ? 0 : std::int8_t(x >= 0 ? x + 1 : x);  // never 0 when not zero
  }
  return plane;
}

// The reference: put every decoded value back at its cell of an all-zero plane.
std::vector<std::int8_t> scatter(const RecursiveDecoded& d, std::size_t cells) {
  std::vector<std::int8_t> dense(cells, 0);
  for (std::size_t k = 0; k < d.cells.size(); ++k) dense.at(d.cells[k]) = d.values[k];
  return dense;
}

double mean_bytes(const RecursiveCompressionShape& s, double zeros) {
  double total = 0;
  for (std::uint64_t seed = 0; seed < 8; ++seed) total += double(recursive_compress(s, random_plane(s.rows, s.cols, zeros, seed).data()).bytes());
  return total / 8;
}

// The smallest zero fraction (in steps of 0.01) at which the mean compressed plane is no
// larger than the dense one.
double break_even(const RecursiveCompressionShape& s) {
  for (int z = 0; z <= 100; ++z)
    if (mean_bytes(s, z / 100.0) <= double(s.rows) * s.cols) return z / 100.0;
  return 1;
}

}  // namespace

TEST_CASE("op 1720 recursive compression: a 4x4 plane with two non-zeros, worked by hand", "[compression_block]") {
  std::vector<std::int8_t> plane(16, 0);
  plane[0 * 4 + 1] = 7;
  plane[3 * 4 + 3] = -2;
  const RecursiveCompressionShape s{4, 4, 2};
  const RecursiveCompressed c = recursive_compress(s, plane.data());
  // Bits, first to last: root non-empty 1; root mask over its 2x2 portions 1 0 0 1; the
  // top-left leaf's bitmap 0 1 0 0; the bottom-right leaf's 0 0 0 1. LSB first:
  // byte 0 = bits 0,1,4,6 = 1 + 2 + 16 + 64 = 83, byte 1 = bit 12 = 16.
  CHECK(c.index == std::vector<std::uint8_t>{83, 16});
  CHECK(c.values == std::vector<std::int8_t>{7, -2});
  CHECK(c.bytes() == 4);  // dense: 16 bytes; flat 5-byte entries: 10
}

TEST_CASE("op 1720 recursive compression round-trips random planes of every shape and sparsity",
          "[compression_block]") {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 300; ++trial) {
    const RecursiveCompressionShape s{std::uint32_t(1 + rng() % 70), std::uint32_t(1 + rng() % 130),
                                      std::uint32_t(1u << (rng() % 4))};
    const double zeros = double(rng() % 96) / 100.0;
    const auto plane = random_plane(s.rows, s.cols, zeros, rng());
    const RecursiveCompressed c = recursive_compress(s, plane.data());
    RecursiveDecoded d;
    INFO("plane " << s.rows << "x" << s.cols << " min cell " << s.min_cell << " zeros " << zeros);
    REQUIRE_FALSE(recursive_decompress(s, c.index.data(), c.index.size(), c.values.data(), c.values.size(), d));
    CHECK(scatter(d, plane.size()) == plane);
    CHECK(d.index_bytes == c.index.size());
    std::vector<bool> occupied(plane.size());
    for (std::size_t i = 0; i < plane.size(); ++i) occupied[i] = plane[i] != 0;
    CHECK(recursive_index_bytes(s, occupied) == c.index.size());
    CHECK(c.index.size() <= recursive_index_capacity(s));
  }
}

// Measured break-even (README.md): one output row of the 56x56x64 bench layer (a 56 x 64
// plane), and the skinny rows of a 7x7x2048 and a 224x224x3 map.
TEST_CASE("op 1720 recursive compression beats dense from about 15 % zeros, the flat format only from 80 %",
          "[compression_block]") {
  for (auto [rows, cols] : {std::pair<std::uint32_t, std::uint32_t>{56, 64}, {7, 2048}, {224, 3}}) {
    const RecursiveCompressionShape s{rows, cols, 4};
    const double z = break_even(s);
    INFO("plane " << rows << "x" << cols << " break-even at " << z << " zeros");
    CHECK(z >= 0.10);
    CHECK(z <= 0.20);
    // The flat format (5 bytes per non-zero) reaches dense only at 80 % zeros; at 90 % it
    // takes half the dense size, and the recursive format less than half of that.
    const double cells = double(rows) * cols;
    CHECK(mean_bytes(s, 0.9) < 5 * 0.1 * cells / 2);
  }
}

TEST_CASE("op 1720 recursive compression: streams whose levels disagree are named", "[compression_block]") {
  std::vector<std::int8_t> plane(16, 0);
  plane[1] = 7;
  plane[15] = -2;
  const RecursiveCompressionShape s{4, 4, 2};
  const RecursiveCompressed good = recursive_compress(s, plane.data());
  RecursiveDecoded d;
  SECTION("a leaf marked non-zero above with an empty bitmap") {
    std::vector<std::uint8_t> index = good.index;
    index[1] = 0;  // clears bit 12, the bottom-right leaf's only cell
    const auto m = recursive_decompress(s, index.data(), index.size(), good.values.data(), 2, d);
    REQUIRE(m);
    CHECK(m->place == "level 1 portion rows 2-3 cols 2-3");
    CHECK(m->reason == "the level above marks it non-zero but its bitmap is empty");
  }
  SECTION("an inner portion marked non-zero above with an empty mask") {
    const RecursiveCompressionShape big{8, 8, 2};
    std::vector<std::uint8_t> index{0x03, 0, 0, 0};  // root marked, its mask marks portion 0, whose mask is 0
    const auto m = recursive_decompress(big, index.data(), index.size(), good.values.data(), 2, d);
    REQUIRE(m);
    CHECK(m->place == "level 1 portion rows 0-3 cols 0-3");
    CHECK(m->reason == "the level above marks it non-zero but its mask is empty");
  }
  SECTION("more marked cells than values") {
    const auto m = recursive_decompress(s, good.index.data(), good.index.size(), good.values.data(), 1, d);
    REQUIRE(m);
    CHECK(m->reason == "marks more cells than the 1 values");
  }
  SECTION("a stream cut inside a level") {
    const auto m = recursive_decompress(s, good.index.data(), 1, good.values.data(), 2, d);
    REQUIRE(m);
    CHECK(m->reason == "the index buffer ends inside this level");
  }
  SECTION("a marked value of 0") {
    const std::vector<std::int8_t> values{7, 0};
    const auto m = recursive_decompress(s, good.index.data(), good.index.size(), values.data(), 2, d);
    REQUIRE(m);
    CHECK(m->place == "value 1");
  }
}
