// Heterogeneous chips: /core_kinds adds named kinds of core over the /core section.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "e2e/NpusimProcess.h"
#include "models/vector_unit/VectorUnitConfig.h"
#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"
#include "sim/trace/InstructionParser.h"

using namespace npusim;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

HardwareConfig parse(const std::string& text) { return parse_hardware_config(json::parse(text), "chip.json"); }

InputError rejection(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("config was accepted: " << text);
  throw std::logic_error("unreachable");
}

// 2 clusters x 2 cores; `kinds` is the /core_kinds object.
std::string chip_with(const std::string& kinds) {
  return R"({"chip": {"clusters": 2, "cores_per_cluster": 2}, "core_kinds": )" + kinds + "}";
}

const char* kVectorCore =
    R"({"vector_core": {"per_cluster": 1, "engines": ["load", "store", "vector"], "nram": {"capacity_bytes": 262144},
                        "vector": {"bytes_per_cycle": 128}}})";

}  // namespace

TEST_CASE("core kinds: a kind overrides /core and the /core kind fills each cluster first", "[config][core-kinds]") {
  HardwareConfig hw = parse(chip_with(kVectorCore));
  REQUIRE(hw.core_kinds.size() == 1);
  CHECK(hw.kind_of_core == std::vector<std::uint32_t>{0, 1, 0, 1});
  const CoreConfig& vec = hw.core_of(1);
  CHECK(vec.kind == "vector_core");
  CHECK(vec.engines == std::vector<std::string>{"load", "store", "vector"});
  CHECK(vec.nram.capacity_bytes == 262144);
  CHECK(vec.wram.capacity_bytes == hw.core.wram.capacity_bytes);  // inherited from /core
  CHECK(vec.block<VectorUnitConfig>("vector").bytes_per_cycle == 128);
  CHECK(hw.core_of(0).block<VectorUnitConfig>("vector").bytes_per_cycle == 64);
  CHECK(hw.cores_with("matrix") == std::vector<std::uint32_t>{0, 2});
  CHECK(hw.cores_with("vector") == std::vector<std::uint32_t>{0, 1, 2, 3});
}

TEST_CASE("core kinds: in_clusters puts a kind in some clusters only", "[config][core-kinds]") {
  HardwareConfig hw = parse(chip_with(R"({"sparse": {"per_cluster": 2, "in_clusters": [1]},
                                          "lean": {"per_cluster": 1, "in_clusters": [0],
                                                   "engines": ["load", "store", "vector"]}})"));
  // Kinds are laid out in name order after the /core kind: lean (1), sparse (2).
  CHECK(hw.core_kinds.at(0).kind == "lean");
  CHECK(hw.kind_of_core == std::vector<std::uint32_t>{0, 1, 2, 2});
}

TEST_CASE("core kinds: the resolved config reads back to the same chip", "[config][core-kinds]") {
  HardwareConfig hw = parse(chip_with(kVectorCore));
  json resolved = resolved_config_json(hw);
  CHECK(resolved.at("/core_kinds/vector_core/per_cluster"_json_pointer) == 1);
  CHECK_FALSE(resolved.at("/core_kinds/vector_core"_json_pointer).contains("matrix"));  // it has no matrix slot
  CHECK(resolved_config_json(parse_hardware_config(resolved, "resolved.json")) == resolved);
}

TEST_CASE("core kinds: mistakes are named at the kind's own key", "[config][core-kinds]") {
  InputError missing = rejection(chip_with(R"({"v": {"engines": ["load", "vector"]}})"));
  CHECK(missing.location() == "/core_kinds/v/per_cluster");
  CHECK_THAT(missing.reason(), Contains("is missing"));

  InputError crowded = rejection(chip_with(R"({"a": {"per_cluster": 2}, "b": {"per_cluster": 1}})"));
  CHECK(crowded.location() == "/core_kinds/b/per_cluster");
  CHECK_THAT(crowded.reason(), Contains("cluster 0 would hold 3 cores") && Contains("cores_per_cluster (2)"));

  InputError cluster = rejection(chip_with(R"({"a": {"per_cluster": 1, "in_clusters": [0, 2]}})"));
  CHECK(cluster.location() == "/core_kinds/a/in_clusters/1");
  CHECK_THAT(cluster.reason(), Contains("cluster 2 does not exist"));

  CHECK_THAT(rejection(chip_with(R"({"core": {"per_cluster": 1}})")).reason(), Contains("'core' is the /core"));
  CHECK_THAT(rejection(chip_with(R"({"a b": {"per_cluster": 1}})")).reason(), Contains("letters, digits"));

  InputError typo = rejection(chip_with(R"({"a": {"per_cluster": 1, "nrm": {}}})"));
  CHECK(typo.location() == "/core_kinds/a/nrm");
  CHECK_THAT(typo.reason(), Contains("did you mean 'nram'?"));

  // The controller is chip-wide: a kind cannot have its own.
  CHECK(rejection(chip_with(R"({"a": {"per_cluster": 1, "controller": {"dispatch_cycles": 2}}})")).location() ==
        "/core_kinds/a/controller");

  InputError range = rejection(chip_with(R"({"a": {"per_cluster": 1, "nram": {"capacity_bytes": 1}}})"));
  CHECK(range.location() == "/core_kinds/a/nram/capacity_bytes");

  InputError no_load = rejection(chip_with(R"({"a": {"per_cluster": 1, "engines": ["vector"]}})"));
  CHECK(no_load.location() == "/core_kinds/a/engines");

  InputError rule = rejection(chip_with(R"({"a": {"per_cluster": 1, "matrix": {"relay_bytes": 8}}})"));
  CHECK(rule.location() == "/core_kinds/a/matrix/relay_bytes");

  CHECK(rejection(R"({"core_kinds": [1]})").location() == "/core_kinds");
}

TEST_CASE("core kinds: a trace op on a core whose kind lacks its engine names the cores that have it",
          "[config][core-kinds][trace]") {
  HardwareConfig hw = parse(chip_with(kVectorCore));
  const json conv = json::parse(R"({"id": 0, "op": "conv", "core": 1,
      "inputs": [{"space": "nram", "offset": 0, "shape": [1, 3, 3, 8], "dtype": "int8"},
                 {"space": "wram", "offset": 0, "shape": [8, 3, 3, 8], "dtype": "int8"}],
      "outputs": [{"space": "nram", "offset": 1024, "shape": [1, 1, 1, 8], "dtype": "int32"}]})");
  try {
    parse_instruction(conv, hw, TracePlace{"t.jsonl", 2});
    FAIL("accepted a conv on a core without a matrix unit");
  } catch (const InputError& e) {
    CHECK_THAT(e.reason(), Contains("core 1 (kind 'vector_core')") && Contains("cores with it: 0, 2"));
  }
  json on_core2 = conv;
  on_core2["core"] = 2u;
  CHECK(parse_instruction(on_core2, hw, TracePlace{"t.jsonl", 2}).core == 2);
}

// The shipped example: 2 Wfold cores and 2 vector-only cores. Convs must run on the
// Wfold cores, everything else on the vector cores, and every tensor must equal the
// default chip's.
TEST_CASE("core kinds: configs/hetero-2x2.json runs the tiny net with each layer on its kind of core",
          "[config][core-kinds][e2e]") {
  const std::string hetero = scratch_dir("hetero-tiny"), plain = scratch_dir("plain-tiny");
  const std::string workload = source_path("traces/workloads/tiny.json");
  auto a = run_npusim({"run", "--quiet", "--functional", "--workload", workload, "--config",
                       source_path("configs/hetero-2x2.json"), "--out", hetero});
  INFO(a.output);
  REQUIRE(a.status == 0);
  auto b = run_npusim({"run", "--quiet", "--functional", "--workload", workload, "--out", plain});
  REQUIRE(b.status == 0);

  std::map<std::string, std::set<std::string>> cores_by_engine;
  std::istringstream csv(read_text(hetero + "/instructions.csv"));
  std::string line;
  std::getline(csv, line);  // header: id,op,engine,core,...
  while (std::getline(csv, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    const std::string slot = cells.at(2).substr(cells.at(2).find('.') + 1);
    if (slot == "matrix" || cells.at(1) == "pool" || cells.at(1) == "add" || cells.at(1) == "dwconv")
      cores_by_engine[cells.at(1)].insert(cells.at(3));
  }
  CHECK(cores_by_engine["conv"] == std::set<std::string>{"0", "2"});
  for (const char* op : {"pool", "add", "dwconv"}) {
    INFO(op);
    CHECK(cores_by_engine[op] == std::set<std::string>{"1", "3"});
  }

  json report = json::parse(read_text(hetero + "/report.json"));
  for (const auto& row : report.at("/workload/rows"_json_pointer)) {
    INFO(row.dump());
    const bool conv = row.at("kind") == "conv" || row.at("kind") == "fc";
    CHECK(row.at("engine") == (conv ? "matrix" : "vector"));
    CHECK(row.at("core_kind") == (conv ? "core" : "vector_core"));
    CHECK(row.at("cores") == 2);
  }
  for (const auto& entry : std::filesystem::directory_iterator(plain + "/tensors")) {
    INFO(entry.path().filename());
    CHECK(read_text(entry.path().string()) == read_text(hetero + "/tensors/" + entry.path().filename().string()));
  }
}
