// Placement goes through the lowering registry (planning/LayerPlacement.cpp): a layer runs
// on the first lowering, by rank, that takes it and whose engines some core kind has.
#include <catch2/catch.hpp>

#include <algorithm>

#include <fmt/format.h>

#include "apps/compiler/emit/Lowering.h"
#include "apps/compiler/planning/LayerPlacement.h"
#include "apps/frontend/WorkloadReader.h"
#include "e2e/NpusimProcess.h"
#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;

namespace {

// A core kind with cores that has every one of `engines`.
bool some_kind_has(const HardwareConfig& hw, const std::vector<std::string>& engines) {
  for (std::uint32_t i = 0; i < hw.chip.cores(); ++i) {
    const CoreConfig& core = hw.core_of(i);
    if (std::all_of(engines.begin(), engines.end(), [&](const std::string& e) { return core.has_engine(e); }))
      return true;
  }
  return false;
}

// The reference: walk the registry by rank and ask each lowering.
std::string first_taker(const HardwareConfig& hw, const Layer& l) {
  for (const Lowering* lowering : lowerings()) {
    const auto engines = lowering->takes(l);
    if (!engines.empty() && some_kind_has(hw, engines)) return lowering->name();
  }
  return "";
}

const char* kEveryKind = R"({"input": {"h": 8, "w": 8, "c": 8}, "layers": [
  {"name": "conv", "type": "conv", "co": 8, "k": 3, "padding": 1},
  {"name": "dw", "type": "conv", "co": 8, "k": 3, "padding": 1, "groups": 8},
  {"name": "pool", "type": "pool", "mode": "max", "k": 2, "stride": 2},
  {"name": "relu", "type": "relu"},
  {"name": "cat", "type": "concat", "inputs": ["relu", "pool"]},
  {"name": "fc", "type": "fc", "n": 10}]})";

}  // namespace

TEST_CASE("placement: each layer goes to the first lowering by rank whose takes() some core kind can run",
          "[lowering][compiler]") {
  const Workload w = parse_workload_json(kEveryKind, "w.json");
  for (const char* config : {"configs/default.json", "configs/gpu-shader.json", "configs/hetero-2x2.json"}) {
    const HardwareConfig hw = load_hardware_config(source_path(config));
    for (const Layer& l : w.layers) {
      INFO(config << ": " << l.name);
      const std::string expected = first_taker(hw, l);
      REQUIRE_FALSE(expected.empty());
      CHECK(tile_layer(w, l, hw).engine == expected);
    }
  }
}

TEST_CASE("placement: a conv that no core kind can run names every lowering's engines, in rank order",
          "[lowering][compiler]") {
  // A chip of vector-only cores: neither the Wfold unit nor a shader core.
  const std::string dir = scratch_dir("lowering-placement");
  write_text(dir + "/chip.json", fmt::format(R"({{"extends": "{}", "core": {{"engines": ["load", "store", "vector"]}}}})",
                                             source_path("configs/default.json")));
  const HardwareConfig hw = load_hardware_config(dir + "/chip.json");
  const Workload w = parse_workload_json(kEveryKind, "w.json");
  std::vector<std::string> wanted;
  for (const Lowering* lowering : lowerings())
    if (const auto engines = lowering->takes(w.layers.at(0)); !engines.empty())
      wanted.push_back(fmt::format("{}", fmt::join(engines, ", ")));
  REQUIRE(wanted.size() == 2);  // the Wfold unit, then a shader core
  CHECK_THROWS_WITH(tile_layer(w, w.layers.at(0), hw),
                    Catch::Contains(fmt::format("needs a core with engines {} (or) {}, and no core", wanted[0], wanted[1])));
  CHECK(tile_layer(w, w.layers.at(2), hw).engine == first_taker(hw, w.layers.at(2)));
}
