// depend_on_each: the dependencies depend() called once per id give, in the same order,
// without depend()'s scan of every dependency for each id.
#include <catch2/catch.hpp>

#include <random>

#include "apps/compiler/emit/TraceOperands.h"

using namespace npusim;

TEST_CASE("depend_on_each adds exactly the dependencies depend() one id at a time adds", "[compiler]") {
  std::mt19937_64 rng(36);
  for (int trial = 0; trial < 50; ++trial) {
    Instruction fast, reference;
    // Dependencies the instruction already has, one of them staged (depend keeps its mode).
    for (int i = 0; i < trial % 5; ++i) {
      const std::int64_t id = std::int64_t(rng() % 40);
      const DependencyMode mode = i == 0 ? DependencyMode::Staged : DependencyMode::Full;
      depend(fast, id, mode);
      depend(reference, id, mode);
    }
    std::vector<std::uint64_t> ids;  // unsorted, with repeats and ids the instruction has
    for (std::uint64_t i = 0, n = rng() % 60; i < n; ++i) ids.push_back(rng() % 40);
    depend_on_each(fast, ids);
    for (std::uint64_t id : ids) depend(reference, std::int64_t(id));
    REQUIRE(fast.deps.size() == reference.deps.size());
    for (std::size_t i = 0; i < fast.deps.size(); ++i) {
      CHECK(fast.deps[i].producer == reference.deps[i].producer);
      CHECK(fast.deps[i].mode == reference.deps[i].mode);
      CHECK(fast.deps[i].granularity == reference.deps[i].granularity);
    }
  }
}
