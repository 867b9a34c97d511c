// Weight-memory refills (issue 31): a kernel larger than the weight memory loads part by
// part. With one buffer set each part waits for the units to finish the previous one;
// with two (double buffering) the next part loads while the units use the other set.
// The timelines are checked against hand arithmetic with a path that takes 10 (or 150)
// cycles a part.
#include <catch2/catch.hpp>

#include <vector>

#include "models/sparse_memory/WeightMemory.h"

using namespace npusim;

namespace {

struct FakePath {
  Cycles latency;
  std::vector<Cycles> issues;
  Cycles operator()(std::uint64_t, std::uint64_t, Cycles issue) {
    issues.push_back(issue);
    return issue + latency;
  }
};

}  // namespace

TEST_CASE("Weight memory: double buffering loads the next part while the units use the other set",
          "[sparse][weight_refill]") {
  // 35 weights in parts of 10 (10, 10, 10, 5); the units need 350 cycles for all of them,
  // 10 per weight: shares 100, 100, 100, 50.
  SECTION("a fast path hides every refill") {
    FakePath path{10, {}};
    const Cycles done = WeightMemory::refill_timeline(WeightRefill::Double, 35, 10, 10, 360, std::ref(path));
    // part 1 into the free set at 10 (in at 20); part 2 when part 0 is used (110); part 3 at 210.
    CHECK(path.issues == std::vector<Cycles>{10, 110, 210});
    CHECK(done == 360);
  }
  SECTION("a slow path stalls the units") {
    FakePath path{150, {}};
    // part 0 in at 150, used by 250; part 1 issued at 150, in at 300, used 300..400; part 2
    // issued when the path is free again (300), in at 450, used 450..550; part 3 issued at
    // 450, in at 600, used 600..650.
    const Cycles done = WeightMemory::refill_timeline(WeightRefill::Double, 35, 10, 150, 500, std::ref(path));
    CHECK(path.issues == std::vector<Cycles>{150, 300, 450});
    CHECK(done == 650);
  }
}

TEST_CASE("Weight memory: one buffer set makes every refill wait for the units", "[sparse][weight_refill]") {
  // 35 weights in parts of 20 (20, 15); 350 cycles in all: shares 200 and 150.
  FakePath path{10, {}};
  const Cycles done = WeightMemory::refill_timeline(WeightRefill::Single, 35, 20, 10, 360, std::ref(path));
  // part 0 used 10..210; part 1 issued at 210, in at 220, used 220..370.
  CHECK(path.issues == std::vector<Cycles>{210});
  CHECK(done == 370);
  // A kernel that fits in one part loads nothing more.
  FakePath none{10, {}};
  CHECK(WeightMemory::refill_timeline(WeightRefill::Single, 20, 20, 10, 360, std::ref(none)) == 360);
  CHECK(none.issues.empty());
}
