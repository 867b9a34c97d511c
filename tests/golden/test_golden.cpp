#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "e2e/NpusimProcess.h"
#include "TestPaths.h"

namespace fs = std::filesystem;

namespace {

// Each golden is traces/golden/NAME/{trace.jsonl, config.json, expected/}. The
// run must match expected/ exactly; after a deliberate timing change the
// goldens are regenerated with scripts/update-goldens (docs/regression.md).
void check_golden(const std::string& name) {
  const std::string golden = source_path("traces/golden/" + name);
  const std::string out = scratch_dir("golden-" + name) + "/run";
  auto run = run_npusim({"run", "--quiet", "--config", golden + "/config.json", "--trace", golden + "/trace.jsonl",
                         "--out", out});
  INFO(run.output);
  REQUIRE(run.status == 0);
  auto diff = run_npusim({"diff", golden + "/expected", out, "--tolerance", "0", "--max-rows", "0"});
  INFO("npusim diff " << golden << "/expected " << out << "\n" << diff.output
                      << "\nIf this timing change is intended, run scripts/update-goldens and commit the result.");
  CHECK(diff.status == 0);
}

const std::set<std::string> kGoldens = {"vector", "conv", "multicore", "numa", "cluster", "shader"};

}  // namespace

TEST_CASE("golden vector: two overlapping load-add-relu-store tiles on one core", "[golden]") {
  check_golden("vector");
}

TEST_CASE("golden conv: two 3x3 convolutions sharing one feature map", "[golden]") { check_golden("conv"); }

TEST_CASE("golden multicore: conv and relu chains on the four cores of smp-2x2", "[golden]") {
  check_golden("multicore");
}

TEST_CASE("golden numa: the multicore trace on numa-2x2", "[golden]") { check_golden("numa"); }

TEST_CASE("golden cluster: pitched channel blocks handed between cores through the cluster caches", "[golden]") {
  check_golden("cluster");
}

TEST_CASE("golden shader: tiny.json compiled for the GPU-style shader core (seed003)", "[golden]") {
  check_golden("shader");
}

TEST_CASE("every golden directory has a test case and expected outputs", "[golden]") {
  std::set<std::string> found;
  for (const auto& entry : fs::directory_iterator(source_path("traces/golden")))
    if (entry.is_directory()) found.insert(entry.path().filename().string());
  CHECK(found == kGoldens);
  for (const auto& name : kGoldens) {
    INFO(name);
    const fs::path dir = source_path("traces/golden/" + name);
    CHECK(fs::is_regular_file(dir / "trace.jsonl"));
    CHECK(fs::is_regular_file(dir / "config.json"));
    CHECK(fs::is_regular_file(dir / "expected/report.json"));
    CHECK(fs::is_regular_file(dir / "expected/instructions.csv"));
    // Goldens are compared across machines: no absolute path may leak into them.
    CHECK(read_text((dir / "expected/report.json").string()).find(NPUSIM_SOURCE_DIR) == std::string::npos);
  }
}
