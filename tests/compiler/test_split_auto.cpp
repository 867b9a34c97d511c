// --split auto follows simulation (issue 32): each conv or fc layer takes, of the modes
// its strategy allows, the one whose layer run alone on the chip is fastest. The
// reference is independent of the planner's trials: every layer of a held-out table
// (tests/compiler/split-held-out) written as its own one-layer workload and run by a
// separate npusim process with each mode forced.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/compiler/planning/SplitPlanner.h"
#include "apps/frontend/WorkloadReader.h"
#include "compiler/HeldOutLayers.h"
#include "e2e/NpusimProcess.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;
using npusim::held_out::one_layer_workloads;
using npusim::held_out::run_report;

namespace {

void check_table(const std::string& table, const std::string& config) {
  const std::string dir = scratch_dir("split-auto-" + table + "-" + config);
  const std::string csv = source_path("tests/compiler/split-held-out/" + table + ".csv");
  const std::string cfg = source_path("configs/" + config + ".json");
  const auto autorun = run_report({"--workload", csv, "--config", cfg, "--split", "auto"}, dir + "/auto");
  const auto layers = one_layer_workloads(csv);
  std::size_t compared = 0;
  for (const auto& row : autorun.at("workload").at("rows")) {
    const std::string name = row.at("name");
    const nlohmann::json& split = row.at("split");
    INFO(table << " on " << config << ", layer " << name << ": " << split.dump());
    REQUIRE(split.contains("simulated_cycles"));
    const std::string path = dir + "/" + name + ".json";
    write_text(path, layers.at(name));
    // Where the network ran faster with the three pure modes' picks, the pick is the best of those.
    const bool pure_kept = split.at("reason").get<std::string>().find("the three's are kept") != std::string::npos;
    std::uint64_t best = ~0ull;
    for (const auto& [mode, cycles] : split.at("simulated_cycles").items()) {
      if (pure_kept && mode.rfind("hybrid", 0) == 0) continue;
      const auto forced = run_report({"--workload", path, "--config", cfg, "--split", mode}, dir + "/" + name + "-" + mode);
      const auto& forced_row = forced.at("workload").at("rows").at(0);
      CHECK(forced_row.at("split").at("mode") == mode);
      CHECK(cycles.get<std::uint64_t>() == forced.at("total_cycles").get<std::uint64_t>());
      best = std::min(best, forced.at("total_cycles").get<std::uint64_t>());
    }
    CHECK(split.at("simulated_cycles").at(split.at("mode").get<std::string>()).get<std::uint64_t>() == best);
    ++compared;
  }
  CHECK(compared == layers.size());
}

}  // namespace

TEST_CASE("split auto: held-out ResNet-18 layers take the mode whose forced run alone is fastest (smp-4x4)",
          "[split][auto][heavy]") {
  check_table("resnet18", "smp-4x4");
}

TEST_CASE("split auto: held-out Inception-v3 layers take the mode whose forced run alone is fastest (numa-2x2)",
          "[split][auto][heavy]") {
  check_table("inception-v3", "numa-2x2");
}

TEST_CASE("split auto: held-out YOLOv3-tiny layers take the mode whose forced run alone is fastest (smp-2x4)",
          "[split][auto][slow][heavy]") {
  check_table("yolov3-tiny", "smp-2x4");
}

TEST_CASE("split auto: the planner takes the fastest trial, keeps every figure, and falls back to the estimate",
          "[split][auto]") {
  const HardwareConfig hw = load_hardware_config(source_path("configs/smp-4x4.json"));
  const Workload w = parse_workload_json(R"({"name": "t", "input": {"h": 14, "w": 14, "c": 256},
      "layers": [{"name": "x", "type": "conv", "co": 256, "k": 3, "padding": 1}]})", "t.json");
  std::map<SplitChoice, std::optional<std::uint64_t>> cycles = {
      {SplitChoice::Data, 900}, {SplitChoice::ModelCo, 700}, {SplitChoice::ModelCi, 800},
      {SplitChoice::HybridCo, 750}, {SplitChoice::HybridCi, 1000}};
  std::size_t calls = 0;
  SplitOptions options;
  options.trial = [&](const Workload& one, const HardwareConfig&, const SplitOptions& o) {
    ++calls;
    CHECK(one.layers.size() == 1);
    CHECK(one.layers[0].inputs == std::vector<std::string>{"input"});
    return cycles.at(*o.choice);
  };
  const SplitPlanner planner(w, hw, options);
  auto [tiling, split] = planner.plan(w.layers[0], 0, 0);
  REQUIRE(split.simulated.size() == split.estimates.size());
  REQUIRE(split.simulated.size() >= 2);
  ParallelMode best = split.simulated[0].first;
  std::uint64_t least = ~0ull;
  for (const auto& [mode, c] : split.simulated)
    if (c < least) least = c, best = mode;
  CHECK(split.mode == best);
  CHECK(split.reason.find("simulates faster") != std::string::npos);
  // The same shape again is not simulated again.
  const std::size_t first_calls = calls;
  planner.plan(w.layers[0], 0, 1);
  CHECK(calls == first_calls);
  // A failed trial: the estimate decides, and the report keeps only what was simulated.
  for (auto& [choice, c] : cycles) c.reset();
  const SplitPlanner failing(w, hw, options);
  auto [t2, s2] = failing.plan(w.layers[0], 0, 0);
  CHECK(s2.simulated.empty());
  CHECK(s2.reason.find("estimated") != std::string::npos);
}

TEST_CASE("split auto: explain on a multi-core chip gives the trials and the mode that npusim run reports",
          "[split][auto][explain]") {
  const std::string dir = scratch_dir("split-auto-explain");
  for (const char* config : {"smp-4x4", "numa-2x2"}) {
    INFO(config);
    const std::string cfg = source_path(std::string("configs/") + config + ".json");
    const auto r = run_npusim({"explain", "--config", cfg, "--layer", "hi=28,wi=28,ci=128,co=128,k=3,pad=1", "--format", "json"});
    REQUIRE(r.status == 0);
    const auto explained = nlohmann::json::parse(r.output).at("split");
    write_text(dir + "/layer.json", R"({"name": "x", "input": {"h": 28, "w": 28, "c": 128},
      "layers": [{"name": "x", "type": "conv", "co": 128, "k": 3, "padding": 1}]})");
    const auto report = run_report({"--workload", dir + "/layer.json", "--config", cfg}, dir + "/" + config);
    const auto& split = report.at("workload").at("rows").at(0).at("split");
    CHECK(explained.at("mode") == split.at("mode"));
    CHECK(explained.at("reason") == split.at("reason"));
    CHECK(explained.at("simulated_cycles") == split.at("simulated_cycles"));
  }
  // One core: no split section.
  const auto one = run_npusim({"explain", "--layer", "hi=28,wi=28,ci=128,co=128,k=3,pad=1", "--format", "json"});
  CHECK_FALSE(nlohmann::json::parse(one.output).contains("split"));
}
