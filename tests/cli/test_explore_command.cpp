// npusim explore hands its arguments to python3 -m npusim.exploration (apps/cli/ExploreCommand.cpp);
// the exploration itself is tested by tests/python/test_explore.py.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

TEST_CASE("explore --help teaches with examples and names the spec's documentation", "[cli][explore]") {
  const NpusimResult r = run_npusim({"explore", "--help"});
  CHECK(r.status == 0);
  CHECK(r.output.find("docs/exploration.md") != std::string::npos);
  CHECK(r.output.find("npusim explore configs/explore/resnet50-6axes.json --out") != std::string::npos);
  CHECK(r.output.find("--trials") != std::string::npos);
  CHECK(r.output.find("--seed") != std::string::npos);
}

TEST_CASE("explore refuses a bad spec with one line naming its place, exit 2, before anything runs",
          "[cli][explore][heavy]") {
  const std::string dir = scratch_dir("explore-bad-spec");
  nlohmann::json spec = {{"config", source_path("configs/default.json")},
                         {"workload", source_path("traces/workloads/tiny.json")},
                         {"axes", {{{"pointer", "/core/matrix/slaves"}, {"range", {8, 2}}}}},
                         {"objectives", {"cycles"}}};
  write_text(dir + "/spec.json", spec.dump());
  const NpusimResult r = run_npusim({"explore", dir + "/spec.json", "--out", dir + "/out"});
  CHECK(r.status == 2);
  CHECK(r.output == "error: " + dir + "/spec.json: /axes/0/range: low (8) is above high (2)\n");
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));
}
