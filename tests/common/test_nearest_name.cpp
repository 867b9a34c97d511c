#include <catch2/catch.hpp>

#include "sim/common/InputError.h"
#include "sim/common/NearestName.h"

using namespace npusim;

TEST_CASE("nearest_name suggests the closest key for a typo", "[common]") {
  std::vector<std::string> keys = {"clock_mhz", "clusters", "cores_per_cluster", "dram"};
  CHECK(nearest_name("clock_mz", keys) == "clock_mhz");
  CHECK(nearest_name("cluster", keys) == "clusters");
  CHECK(nearest_name("completely_unrelated_word", keys).empty());
}

TEST_CASE("InputError names file, location and reason", "[common]") {
  InputError e("a.json", "/chip/clusters", "must be at least 1");
  CHECK(std::string(e.what()) == "a.json: /chip/clusters: must be at least 1");
  CHECK(e.file() == "a.json");
}
