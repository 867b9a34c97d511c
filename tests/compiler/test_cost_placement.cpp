// Placement by cost (/core/sparse/placement auto-cost, issue 31): each conv or fc layer goes to
// the engine whose own mapping predicts fewer cycles, the tiling and the report keep both
// figures, and the seed's verdict stays the default rule.
#include <catch2/catch.hpp>

#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/compiler/TraceEmitter.h"
#include "apps/compiler/lower_sparse/SparseLowering.h"
#include "apps/compiler/planning/LayerPlacement.h"
#include "apps/frontend/WorkloadReader.h"
#include "e2e/NpusimProcess.h"
#include "models/compression_block/CompressedRows.h"
#include "models/sparse_cluster/SparseLayerMapping.h"
#include "sim/config/ConfigLoader.h"

namespace {

std::string chip_file(const std::string& name, const std::string& sparse_keys) {
  const std::string dir = scratch_dir("cost-placement");
  const std::string path = dir + "/" + name + ".json";
  write_text(path, fmt::format(R"({{"extends": "{}", "core": {{"sparse": {{{}}}}}}})",
                               source_path("configs/sparse.json"), sparse_keys));
  return path;
}

npusim::HardwareConfig chip(const std::string& name, const std::string& sparse_keys) {
  return npusim::load_hardware_config(chip_file(name, sparse_keys));
}

struct Shape {
  int hw, c, k;
  double ifm, weights;
  std::string extra;
};

std::string workload_text(const Shape& s) {
  return fmt::format(
      R"({{"input":{{"h":{},"w":{},"c":{}}},"layers":[{{"name":"c","type":"conv","co":{},"k":{},"padding":{},)"
      R"("activation_sparsity":{},"weight_sparsity":{}{}}}]}})",
      s.hw, s.hw, s.c, s.c, s.k, s.k / 2, s.ifm, s.weights, s.extra);
}

npusim::LayerTiling tiling_of(const npusim::HardwareConfig& hw, const Shape& s) {
  npusim::TraceEmitter e(npusim::parse_workload_json(workload_text(s), "w.json"), hw);
  return e.layers().at(0).tiling;
}

double predicted(const npusim::CostPlacement& p, const std::string& engine) {
  for (const auto& [name, cycles] : p.cycles)
    if (name == engine) return cycles;
  FAIL("no prediction for " << engine);
  return 0;
}

// A 56x56x64 -> 64 3x3 conv, 90 % zero products: sparse by the verdict, but 128 multipliers
// take far longer than the 4,096-MAC Wfold unit.
const Shape kWide{56, 64, 3, 0.5, 0.8, ""};
// A 28x28x64 -> 64 3x3 conv with 99.9 % zero products: the cluster's compress passes and its
// few products take less than the Wfold unit's dense pass.
const Shape kSparse{28, 64, 3, 0.98, 0.95, ""};

}  // namespace

TEST_CASE("cost placement: each conv goes to the engine whose mapping predicts fewer cycles, with both figures",
          "[sparse][compiler][placement]") {
  const auto hw = chip("auto-cost", R"("placement": "auto-cost")");
  for (const Shape& s : {kWide, kSparse}) {
    INFO("layer " << s.hw << "x" << s.hw << "x" << s.c << ", zeros " << s.ifm << " / " << s.weights);
    const npusim::LayerTiling t = tiling_of(hw, s);
    const auto* note = t.engine_plan<npusim::CostPlacement>(npusim::kCostPlacementNote);
    REQUIRE(note);
    const double sparse = predicted(*note, "sparse"), matrix = predicted(*note, "matrix");
    CHECK(t.engine == (sparse < matrix ? "sparse" : "matrix"));
    CHECK(note->chosen == t.engine);
    CHECK(note->verdict == "sparse");
    // The Wfold prediction is no faster than its 4,096 MACs allow.
    CHECK(matrix >= double(s.hw) * s.hw * s.c * s.c * s.k * s.k / 4096);
    CHECK_THAT(note->reason, Catch::Matchers::Contains(fmt::format("{:.0f}", sparse)) &&
                                 Catch::Matchers::Contains(fmt::format("{:.0f}", matrix)));
    // The verdict is kept as the seed's rule gave it.
    const auto* verdict = t.engine_plan<npusim::SparseLayerPlan>("sparse");
    REQUIRE(verdict);
    CHECK(verdict->verdict.sparse);
    CHECK_THAT(verdict->verdict.reason, Catch::Matchers::StartsWith("sparse: "));
  }
  CHECK(tiling_of(hw, kWide).engine == "matrix");
  CHECK(tiling_of(hw, kSparse).engine == "sparse");

  SECTION("the cluster's figure is explain's estimate of the sparse_conv plus the compress passes") {
    // Since issue 47 the weights are compressed offline into the trace's DRAM image by default
    // (weight_compression: offline), so only on_chip pays their flat compress on the chip.
    const npusim::LayerTiling t = tiling_of(hw, kSparse);
    const double sparse = predicted(*t.engine_plan<npusim::CostPlacement>(npusim::kCostPlacementNote), "sparse");
    const npusim::LayerTiling on_chip =
        tiling_of(chip("auto-cost-on-chip", R"("placement": "auto-cost", "weight_compression": "on_chip")"), kSparse);
    const double sparse_on_chip =
        predicted(*on_chip.engine_plan<npusim::CostPlacement>(npusim::kCostPlacementNote), "sparse");
    // The layer's sparse_conv uses the workload's seed (1) plus its index (0).
    auto r = run_npusim({"explain", "--config", chip_file("explain", ""), "--engine", "sparse", "--layer",
                         "hi=28,wi=28,ci=64,co=64,kh=3,kw=3,pad=1", "--sparsity", "ifm=0.98,weights=0.95,seed=1"});
    INFO(r.output);
    REQUIRE(r.status == 0);
    std::smatch m;
    REQUIRE(std::regex_search(r.output, m, std::regex("stored at about ([0-9]+) cycles per image")));
    // configs/sparse.json: 16 B/cycle compress path, 64 elements scanned per cycle. The input
    // map (28 x 28 x 64, 2 % non-zero) is compressed once into the recursive format (its values
    // and index bytes); with on_chip, the weights (64 x 3 x 3 x 64, 5 % non-zero) also once into
    // the flat one (5 bytes per non-zero).
    const double map = 28 * 28 * 64, weights = 64 * 9 * 64;
    const double recursive = double(npusim::compressed_row_sizes(npusim::CompressedRows{28, 28, 64},
                                                                 npusim::assumed_map(28, 28, 64, 0.98, 1).indices)
                                        .total());
    const double compress_map = map / 16 + recursive / 16, compress_weights = weights / 16 + 5 * weights * 0.05 / 16;
    CHECK(sparse == Approx(std::stod(m[1].str()) + compress_map));
    CHECK(sparse_on_chip == Approx(std::stod(m[1].str()) + compress_map + compress_weights));
  }
}

TEST_CASE("cost placement: the verdict stays the default, and a layer's engine or a misfit kernel is not weighed",
          "[sparse][compiler][placement]") {
  const npusim::LayerTiling verdict = tiling_of(chip("default", ""), kWide);
  CHECK(verdict.engine == "sparse");
  CHECK_FALSE(verdict.engine_plan<npusim::CostPlacement>(npusim::kCostPlacementNote));
  const auto hw = chip("auto-cost-32", R"("placement": "auto-cost", "min_ports": 32)");
  Shape asked = kWide;
  asked.extra = R"(,"engine":"sparse")";
  const npusim::LayerTiling forced = tiling_of(hw, asked);
  CHECK(forced.engine == "sparse");
  CHECK_FALSE(forced.engine_plan<npusim::CostPlacement>(npusim::kCostPlacementNote));
  const npusim::LayerTiling misfit = tiling_of(hw, Shape{16, 16, 5, 0.9, 0.9, ""});  // VAR 9x9 > 32 ports
  CHECK(misfit.engine == "matrix");
  CHECK_FALSE(misfit.engine_plan<npusim::CostPlacement>(npusim::kCostPlacementNote));
}

TEST_CASE("cost placement: the run report's layer row says why, with both predictions",
          "[sparse][compiler][placement][e2e]") {
  const std::string dir = scratch_dir("cost-placement-report");
  write_text(dir + "/w.json", workload_text(kSparse));
  auto r = run_npusim({"run", "--quiet", "--workload", dir + "/w.json", "--config",
                       chip_file("report", R"("placement": "auto-cost")"), "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto row = nlohmann::json::parse(read_text(dir + "/run/report.json")).at("workload").at("rows").at(0);
  const auto& p = row.at("placement");
  CHECK(p.at("rule") == "auto-cost");
  CHECK(p.at("chosen") == row.at("engine"));
  CHECK(p.at("predicted_cycles").contains("sparse"));
  CHECK(p.at("predicted_cycles").contains("matrix"));
  CHECK_THAT(p.at("reason").get<std::string>(), Catch::Matchers::StartsWith("auto-cost: "));
}

TEST_CASE("cost placement: a layer whose producer hands its output on compressed pays no compress for its input",
          "[sparse][compiler][placement]") {
  const auto hw = chip("auto-cost-chain", R"("placement": "auto-cost")");
  // Two kSparse convs in a row; the second reads the first's whole map, its only reader.
  auto two_layers = [&](const std::string& first_engine) {
    const std::string text = fmt::format(
        R"({{"input":{{"h":28,"w":28,"c":64}},"layers":[)"
        R"({{"name":"a","type":"conv","co":64,"k":3,"padding":1,"activation_sparsity":0.98,"weight_sparsity":0.95{}}},)"
        R"({{"name":"b","type":"conv","co":64,"k":3,"padding":1,"activation_sparsity":0.98,"weight_sparsity":0.95}}]}})",
        first_engine.empty() ? "" : fmt::format(R"(,"engine":"{}")", first_engine));
    npusim::TraceEmitter e(npusim::parse_workload_json(text, "w.json"), hw);
    return e.layers().at(1).tiling;
  };
  const npusim::LayerTiling chained = two_layers(""), dense = two_layers("matrix");
  CHECK(chained.input_chained);
  CHECK_FALSE(dense.input_chained);
  const double with = predicted(*chained.engine_plan<npusim::CostPlacement>(npusim::kCostPlacementNote), "sparse");
  const double without = predicted(*dense.engine_plan<npusim::CostPlacement>(npusim::kCostPlacementNote), "sparse");
  // The difference is the compress of b's input (28 x 28 x 64 read and scanned, then written in
  // the recursive format at 16 B/cycle) drawn with b's seed: the workload's (1) plus its index (1).
  const double map = 28 * 28 * 64;
  const double recursive = double(npusim::compressed_row_sizes(npusim::CompressedRows{28, 28, 64},
                                                               npusim::assumed_map(28, 28, 64, 0.98, 2).indices)
                                      .total());
  CHECK(without - with == Approx(map / 16 + recursive / 16));
  CHECK(chained.engine == "sparse");
}
