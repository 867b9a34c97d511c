// Which engine the compiler gives each conv and fc layer on a chip with a sparse
// cluster (seed001 §2.1): the scheduling engine's threshold, its measure, kernels the
// MINs cannot hold, and layers that force an engine.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "apps/compiler/TraceEmitter.h"
#include "apps/compiler/lower_sparse/SparseLowering.h"
#include "apps/frontend/WorkloadReader.h"
#include "e2e/NpusimProcess.h"
#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"

namespace {

npusim::HardwareConfig sparse_chip(const std::string& sparse_keys) {
  const std::string dir = scratch_dir("sparse-placement");
  write_text(dir + "/chip.json", fmt::format(R"({{"extends": "{}", "core": {{"sparse": {{{}}}}}}})",
                                             source_path("configs/sparse.json"), sparse_keys));
  return npusim::load_hardware_config(dir + "/chip.json");
}

// The engine of one 16x16x16 conv layer with kernel k, declared with these fractions.
std::string engine_of(const npusim::HardwareConfig& hw, int k, double ifm, double weights,
                      const std::string& extra = "") {
  const std::string text = fmt::format(
      R"({{"input":{{"h":16,"w":16,"c":16}},"layers":[{{"name":"c","type":"conv","co":16,"k":{},"padding":{},)"
      R"("activation_sparsity":{},"weight_sparsity":{}{}}}]}})",
      k, k / 2, ifm, weights, extra);
  npusim::TraceEmitter e(npusim::parse_workload_json(text, "w.json"), hw);
  return e.layers().at(0).tiling.engine;
}

}  // namespace

TEST_CASE("compiler: the sparse threshold splits layers between the sparse cluster and the Wfold unit",
          "[sparse][compiler]") {
  SECTION("input-map zeros, the seed's rule: pruned weights alone do not make a layer sparse") {
    const auto hw = sparse_chip(R"("sparsity_measure": "ifm_zeros", "sparse_threshold": 0.8)");
    CHECK(engine_of(hw, 3, 0.8, 0.0) == "sparse");
    CHECK(engine_of(hw, 3, 0.79, 0.0) == "matrix");
    CHECK(engine_of(hw, 3, 0.5, 0.95) == "matrix");
  }
  SECTION("zero products: 1 - (1 - a)(1 - w)") {
    const auto hw = sparse_chip(R"("sparsity_measure": "product_zeros", "sparse_threshold": 0.8)");
    CHECK(engine_of(hw, 3, 0.5, 0.6) == "sparse");   // 0.8
    CHECK(engine_of(hw, 3, 0.5, 0.58) == "matrix");  // 0.79
    CHECK(engine_of(hw, 1, 0.0, 0.8) == "sparse");
  }
  SECTION("a kernel whose VAR needs more MIN ports than there are stays dense, and says why") {
    const auto hw = sparse_chip(R"("min_ports": 32)");
    CHECK(engine_of(hw, 3, 0.9, 0.9) == "sparse");  // VAR 5x5 = 25 ports
    CHECK(engine_of(hw, 5, 0.9, 0.9) == "matrix");  // VAR 9x9 = 81 ports
    const std::string text =
        R"({"input":{"h":16,"w":16,"c":16},"layers":[{"name":"c","type":"conv","co":16,"k":5,"padding":2,)"
        R"("activation_sparsity":0.9,"weight_sparsity":0.9}]})";
    npusim::TraceEmitter e(npusim::parse_workload_json(text, "w.json"), hw);
    const auto* plan = e.layers().at(0).tiling.engine_plan<npusim::SparseLayerPlan>("sparse");
    REQUIRE(plan);
    CHECK_FALSE(plan->verdict.sparse);
    CHECK_THAT(plan->verdict.reason, Catch::Contains("81 VAR locations") && Catch::Contains("32 ports"));
  }
  SECTION("a layer can force either engine") {
    const auto hw = sparse_chip("");
    CHECK(engine_of(hw, 3, 0.0, 0.0, R"(,"engine":"sparse")") == "sparse");
    CHECK(engine_of(hw, 3, 0.9, 0.9, R"(,"engine":"matrix")") == "matrix");
    CHECK_THROWS_AS(engine_of(hw, 7, 0.9, 0.9, R"(,"engine":"sparse")"), npusim::InputError);
    const auto dense_chip = npusim::load_hardware_config(source_path("configs/default.json"));
    CHECK(engine_of(dense_chip, 3, 0.9, 0.9) == "matrix");
    CHECK_THROWS_WITH(engine_of(dense_chip, 3, 0.9, 0.9, R"(,"engine":"sparse")"),
                      Catch::Contains("no core of this chip has a sparse cluster"));
  }
}

TEST_CASE("compiler: pruned ResNet-50 on configs/sparse.json runs conv1 on the Wfold unit, the rest sparse",
          "[sparse][compiler]") {
  const auto hw = npusim::load_hardware_config(source_path("configs/sparse.json"));
  npusim::TraceEmitter e(npusim::read_workload(source_path("traces/workloads/resnet50-pruned.json")), hw);
  std::size_t sparse = 0, matrix = 0;
  for (const auto& c : e.layers()) {
    if (c.tiling.engine == "sparse") ++sparse;
    if (c.tiling.engine == "matrix") ++matrix;
  }
  CHECK(e.layers().at(0).tiling.engine == "matrix");
  CHECK(sparse == 53);  // 52 convs after conv1 and fc1000
  CHECK(matrix == 1);
}
