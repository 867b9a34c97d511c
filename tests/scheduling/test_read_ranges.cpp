// ReadRanges keeps two ranges in place and the rest on the heap; whatever the mix of
// additions, reservations, copies and moves, it must hold what a plain std::vector holds.
#include <catch2/catch.hpp>

#include <random>
#include <utility>
#include <vector>

#include "models/scoreboard/ReadRanges.h"

using namespace npusim;

namespace {
void require_same(const ReadRanges& got, const std::vector<ReadRange>& want) {
  REQUIRE(got.size() == want.size());
  REQUIRE(got.empty() == want.empty());
  REQUIRE(std::size_t(got.end() - got.begin()) == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    REQUIRE(got[i].operand == want[i].operand);
    REQUIRE(got[i].begin == want[i].begin);
    REQUIRE(got[i].end == want[i].end);
  }
  std::size_t i = 0;
  for (const ReadRange& r : got) REQUIRE(r.begin == want[i++].begin);
}
}  // namespace

TEST_CASE("scheduling: read ranges hold what a vector of them holds", "[scheduling]") {
  std::mt19937_64 rng(36);
  TensorOperand a, b;
  for (int trial = 0; trial < 500; ++trial) {
    ReadRanges got;
    std::vector<ReadRange> want;
    if (rng() % 3 == 0) got.reserve(rng() % 8);
    const std::size_t count = rng() % 9;  // 0..8: in place, at the edge and spilled
    for (std::size_t k = 0; k < count; ++k) {
      const ReadRange r{rng() % 2 ? &a : &b, rng() % 1000, 1000 + rng() % 1000};
      got.push_back(r);
      want.push_back(r);
      require_same(got, want);
    }
    const ReadRanges copy = got;  // a copy must not share the original's storage
    require_same(copy, want);
    ReadRanges moved = std::move(got);
    require_same(moved, want);
    require_same(got, {});  // moved from: empty, and usable again
    ReadRanges assigned;
    assigned = copy;
    require_same(assigned, want);
    moved.push_back({&a, 1, 2});
    require_same(copy, want);
  }
  const ReadRange r1{&a, 1, 2}, r2{&b, 3, 4}, r3{&a, 5, 6};
  require_same(ReadRanges{r1}, {r1});
  require_same(ReadRanges{r1, r2, r3}, {r1, r2, r3});
}
