// The shared window arithmetic against a direct count of window positions.
#include <catch2/catch.hpp>

#include <random>

#include "sim/tensor/WindowGeometry.h"

using namespace npusim;

namespace {
// Positions p = 0, s, 2s, ... whose window [p, p + k) lies inside the padded input.
std::uint64_t count_positions(std::uint64_t in, std::uint64_t lo, std::uint64_t hi, std::uint64_t k, std::uint64_t s) {
  std::uint64_t n = 0;
  for (std::uint64_t p = 0; p + k <= in + lo + hi; p += s) ++n;
  return n;
}
}  // namespace

TEST_CASE("window geometry: output counts equal a direct walk over randomized windows", "[tensor][geometry]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint64_t> size(1, 40), small(0, 6), stride(1, 5);
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t in = size(rng), lo = small(rng), hi = small(rng), k = size(rng), s = stride(rng);
    INFO(in << " " << lo << " " << hi << " " << k << " " << s);
    CHECK(window_outputs(in, lo, hi, k, s) == count_positions(in, lo, hi, k, s));
  }
}

TEST_CASE("window geometry: 'same' padding gives ceil(in / stride) outputs with the least padding",
          "[tensor][geometry]") {
  for (std::uint64_t in = 1; in <= 30; ++in)
    for (std::uint64_t k = 1; k <= 7; ++k)
      for (std::uint64_t s = 1; s <= 4; ++s) {
        INFO(in << " " << k << " " << s);
        const std::uint64_t pad = same_padding(in, k, s), want = (in + s - 1) / s;
        CHECK(window_outputs(in, pad / 2, pad - pad / 2, k, s) == want);
        if (pad > 0) CHECK(window_outputs(in, (pad - 1) / 2, pad - 1 - (pad - 1) / 2, k, s) < want);
      }
}

TEST_CASE("window geometry: dilation spreads the taps and the struct reads stride and padding params",
          "[tensor][geometry]") {
  CHECK(dilated_extent(3, 1) == 3);
  CHECK(dilated_extent(3, 2) == 5);
  CHECK(dilated_extent(1, 9) == 1);
  WindowGeometry g;
  g.hi = 56;
  g.wi = 56;
  g.kh = g.kw = 3;
  g.read_params(nlohmann::json::parse(R"({"stride": [2, 1], "padding": [1, 0, 1, 1]})"));
  CHECK(g.sh == 2);
  CHECK(g.pad_bottom == 0);
  CHECK(g.ho() == 28);  // floor((56 + 1 + 0 - 3) / 2) + 1
  CHECK(g.wo() == 56);
  g.kh = 100;
  CHECK_FALSE(g.kernel_fits());
}
