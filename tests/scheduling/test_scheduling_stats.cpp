// SchedulingStats counts every dependency wait under its mode and its engine pair: the
// report's sums, maxima and counts equal a plain tally of the same waits.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>

#include "models/scoreboard/SchedulingStats.h"

using namespace npusim;

TEST_CASE("scheduling stats: waits by mode and by engine pair match a plain tally", "[scheduling]") {
  const std::vector<std::string> kinds = {"load", "store", "matrix", "vector", "finished"};
  struct Tally {
    std::uint64_t count = 0, cycles = 0, max = 0;
  };
  std::map<std::string, Tally> by_mode, by_pair;
  SchedulingStats stats;
  std::mt19937_64 rng(36);
  for (int i = 0; i < 500; ++i) {
    const DependencyMode mode = kDependencyModes[rng() % kDependencyModes.size()];
    const std::string& producer = kinds[rng() % kinds.size()];
    const std::string& consumer = kinds[rng() % (kinds.size() - 1)];
    const Cycles wait = rng() % 1000;
    stats.dependency_wait(mode, producer, consumer, wait);
    for (Tally* t : {&by_mode[json_name(mode)], &by_pair[producer + "->" + consumer]}) {
      t->count += 1;
      t->cycles += wait;
      t->max = std::max<std::uint64_t>(t->max, wait);
    }
  }
  const nlohmann::json deps = stats.to_json(RunStats{})["dependencies"];
  for (const auto& [key, section] : {std::make_pair("by_mode", &by_mode), std::make_pair("by_engine_pair", &by_pair)}) {
    REQUIRE(deps[key].size() == section->size());
    for (const auto& [name, t] : *section) {
      CHECK(deps[key][name]["count"] == t.count);
      CHECK(deps[key][name]["wait_cycles"] == t.cycles);
      CHECK(deps[key][name]["max_wait_cycles"] == t.max);
    }
  }
}
