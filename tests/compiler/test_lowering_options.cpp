// `npusim explain --engine` and `npusim run`'s engine options come from the lowering
// registry (emit/Lowering.h), not from names written into apps/cli.
#include <catch2/catch.hpp>

#include "apps/compiler/emit/Lowering.h"
#include "e2e/NpusimProcess.h"
#include "models/matrix_unit/MatrixUnitConfig.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;

TEST_CASE("explain: the --engine choices are the lowerings that explain a layer, by rank", "[lowering][explain]") {
  std::vector<std::string> names;
  int last_rank = -1;
  for (const Lowering* l : lowerings()) {
    CHECK(l->rank() > last_rank);
    last_rank = l->rank();
    if (!l->explain_help().empty()) names.push_back(l->name());
    CHECK(l->explain_help().empty() == l->explain_target().empty());
  }
  // Rank order, the order the compiler tries them in: the sparse cluster's verdict first.
  CHECK(names == std::vector<std::string>{"sparse", "matrix", "shader"});
}

TEST_CASE("run: --matrix-model is the matrix lowering's option and sets every core kind with a matrix unit",
          "[lowering]") {
  std::vector<std::pair<std::string, Lowering::CliOverride>> matching;
  for (const Lowering* l : lowerings())
    for (const auto& o : l->overrides())
      if (o.flag == "--matrix-model") matching.emplace_back(l->name(), o);
  REQUIRE(matching.size() == 1);
  CHECK(matching.front().first == "matrix");
  const Lowering::CliOverride* found = &matching.front().second;
  CHECK(found->choices == std::vector<std::string>{"fast", "cycle-stepped"});
  // A chip of two core kinds: each one with a matrix unit block gets the model.
  HardwareConfig hw = load_hardware_config(source_path("configs/hetero-2x2.json"));
  auto models = [&] {
    std::vector<MatrixTimingModel> m;
    for (const CoreConfig* kind : hw.kinds())
      if (kind->blocks.has(MatrixUnitConfig::kSection))
        m.push_back(kind->block<MatrixUnitConfig>(MatrixUnitConfig::kSection).timing_model);
    return m;
  };
  REQUIRE(models().size() == 2);
  CHECK(models() == std::vector<MatrixTimingModel>(2, MatrixTimingModel::Fast));
  found->apply(hw, "cycle-stepped");
  CHECK(models() == std::vector<MatrixTimingModel>(2, MatrixTimingModel::CycleStepped));
}
