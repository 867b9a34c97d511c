// Placement by cost's energy objective (/core/sparse/placement auto-cost-energy, issue 31):
// each conv or fc layer goes to the engine whose predicted counters, priced by the run's energy
// table, cost less dynamic energy; the report keeps both engines' cycles and energy.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/compiler/TraceEmitter.h"
#include "apps/compiler/planning/LayerPlacement.h"
#include "apps/frontend/WorkloadReader.h"
#include "e2e/NpusimProcess.h"
#include "sim/config/ConfigLoader.h"

namespace {

std::string chip_file(const std::string& name, const std::string& placement) {
  const std::string path = scratch_dir("energy-placement-" + name) + "/chip.json";
  write_text(path, fmt::format(R"({{"extends": "{}", "core": {{"sparse": {{"placement": "{}"}}}}}})",
                               source_path("configs/sparse.json"), placement));
  return path;
}

struct Shape {
  int hw, c, k;
  double ifm, weights;
};

std::string workload_text(const Shape& s, const std::string& engine = "") {
  return fmt::format(
      R"({{"input":{{"h":{},"w":{},"c":{}}},"layers":[{{"name":"c","type":"conv","co":{},"k":{},"padding":{},)"
      R"("activation_sparsity":{},"weight_sparsity":{}{}}}]}})",
      s.hw, s.hw, s.c, s.c, s.k, s.k / 2, s.ifm, s.weights,
      engine.empty() ? "" : fmt::format(R"(,"engine":"{}")", engine));
}

npusim::LayerTiling tiling_of(const std::string& chip, const Shape& s) {
  npusim::TraceEmitter e(npusim::parse_workload_json(workload_text(s), "w.json"),
                         npusim::load_hardware_config(chip));
  return e.layers().at(0).tiling;
}

double figure(const std::vector<std::pair<std::string, double>>& figures, const std::string& engine) {
  for (const auto& [name, value] : figures)
    if (name == engine) return value;
  FAIL("no figure for " << engine);
  return 0;
}

const npusim::CostPlacement& note_of(const npusim::LayerTiling& t) {
  const auto* note = t.engine_plan<npusim::CostPlacement>(npusim::kCostPlacementNote);
  REQUIRE(note);
  return *note;
}

// 56x56x64 -> 64 3x3, 90 % zero products: the Wfold unit's 4,096 MACs are far faster than the
// cluster's 128 multipliers, but they issue every dense MAC, the cluster a tenth of them.
const Shape kWide{56, 64, 3, 0.5, 0.8};
// 28x28x64 -> 64 3x3 with 99.9 % zero products: the cluster wins on both.
const Shape kSparse{28, 64, 3, 0.98, 0.95};
// 28x28x64 -> 64 3x3 with 20 % zero products: the Wfold unit wins on both.
const Shape kDense{28, 64, 3, 0.2, 0.0};

}  // namespace

TEST_CASE("energy placement: the cost rule takes the fewer predicted figure, a tie keeps the verdict's engine",
          "[sparse][compiler][placement]") {
  CHECK(npusim::cost_choice(1.0, 2.0, false));
  CHECK_FALSE(npusim::cost_choice(2.0, 1.0, true));
  CHECK(npusim::cost_choice(3.0, 3.0, true));
  CHECK_FALSE(npusim::cost_choice(3.0, 3.0, false));
}

TEST_CASE("energy placement: auto-cost-energy picks the engine with the lower predicted energy, where cycles disagree",
          "[sparse][compiler][placement]") {
  const std::string by_energy = chip_file("energy", "auto-cost-energy"), by_cycles = chip_file("cycles", "auto-cost");
  bool disagreed = false;
  for (const Shape& s : {kWide, kSparse, kDense}) {
    INFO("layer " << s.hw << "x" << s.hw << "x" << s.c << ", zeros " << s.ifm << " / " << s.weights);
    const npusim::LayerTiling t = tiling_of(by_energy, s);
    const npusim::CostPlacement& note = note_of(t);
    CHECK(note.objective == "energy");
    const double sparse = figure(note.energy_pj, "sparse"), matrix = figure(note.energy_pj, "matrix");
    CHECK(sparse > 0);
    CHECK(matrix > 0);
    CHECK(t.engine == (sparse < matrix ? "sparse" : "matrix"));
    CHECK_THAT(note.reason, Catch::Matchers::StartsWith("auto-cost-energy: lowest predicted energy") &&
                                Catch::Matchers::Contains(fmt::format("{:.1f} nJ", sparse / 1e3)) &&
                                Catch::Matchers::Contains(fmt::format("{:.1f} nJ", matrix / 1e3)));
    // The cycle objective, on the same layer, weighs the same cycles and picks by them.
    const npusim::LayerTiling c = tiling_of(by_cycles, s);
    const npusim::CostPlacement& cycles = note_of(c);
    CHECK(cycles.objective == "cycles");
    CHECK(figure(cycles.cycles, "sparse") == figure(note.cycles, "sparse"));
    CHECK(figure(cycles.energy_pj, "matrix") == matrix);
    disagreed = disagreed || c.engine != t.engine;
  }
  // kWide: the Wfold unit is faster, the cluster spends less.
  CHECK(tiling_of(by_cycles, kWide).engine == "matrix");
  CHECK(tiling_of(by_energy, kWide).engine == "sparse");
  CHECK(disagreed);
}

TEST_CASE("energy placement: each engine's predicted energy of a single layer is within 5 % of the run's",
          "[sparse][compiler][placement][e2e]") {
  const std::string chip = chip_file("measured", "auto-cost-energy");
  const Shape s{28, 64, 3, 0.5, 0.8};
  const npusim::CostPlacement note = note_of(tiling_of(chip, s));
  for (const std::string engine : {"sparse", "matrix"}) {
    INFO("on " << engine);
    const std::string dir = scratch_dir("energy-placement-run-" + engine);
    write_text(dir + "/w.json", workload_text(s, engine));
    auto r = run_npusim({"run", "--quiet", "--workload", dir + "/w.json", "--config", chip, "--out", dir + "/run"});
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto report = nlohmann::json::parse(read_text(dir + "/run/report.json"));
    REQUIRE(report.at("workload").at("rows").at(0).at("engine") == engine);
    // The layer's own instructions' actions: its engine, the DMA and memories it uses, DRAM.
    const double measured = report.at("energy").at("layers").at(0).at("dynamic_pj").get<double>();
    CHECK(figure(note.energy_pj, engine) == Approx(measured).epsilon(0.05));
  }
}
