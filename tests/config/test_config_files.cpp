#include <catch2/catch.hpp>

#include <filesystem>

#include "config/ScratchDir.h"
#include "sim/common/InputError.h"
#include "models/matrix_unit/MatrixUnitConfig.h"
#include "sim/config/ConfigLoader.h"
#include "TestPaths.h"

using namespace npusim;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

std::string shipped_config(const std::string& name) {
  return (std::filesystem::path(NPUSIM_SOURCE_DIR) / "configs" / name).string();
}

// Runs `load` and returns the InputError it must throw.
template <class Load>
InputError expect_input_error(Load load) {
  try {
    load();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("config: every shipped config loads", "[config]") {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(NPUSIM_SOURCE_DIR) / "configs")) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().string());
    CHECK_NOTHROW(load_hardware_config(entry.path().string()));
    ++count;
  }
  CHECK(count >= 5);
}

TEST_CASE("configs/default.json is the default chip", "[config]") {
  CHECK(resolved_config_json(load_hardware_config(shipped_config("default.json"))) ==
        resolved_config_json(default_hardware_config()));
}

TEST_CASE("config: seed002 example chips: 2 clusters x 2 cores, one DRAM channel per cluster", "[config]") {
  struct Expected {
    const char* file;
    const char* topology;
    bool cache;
  };
  for (const Expected& want : {Expected{"smp-2x2.json", "smp", false}, Expected{"smp-2x2-cache.json", "smp", true},
                               Expected{"numa-2x2.json", "numa", false}, Expected{"numa-2x2-cache.json", "numa", true}}) {
    INFO(want.file);
    ChipConfig chip = load_hardware_config(shipped_config(want.file)).chip;
    CHECK(chip.clusters == 2);
    CHECK(chip.cores_per_cluster == 2);
    CHECK(chip.dram.channels == 2);
    CHECK(json_name(chip.interconnect.topology) == want.topology);
    CHECK(chip.cluster_cache.enabled == want.cache);
    if (chip.interconnect.topology == Topology::Numa) CHECK(chip.dram.interleave_bytes == 0);
  }
}

TEST_CASE("config: extends: keys deep-merge over the base, lists replace", "[config]") {
  ScratchDir dir;
  dir.write("base/base.json", R"({"chip": {"clusters": 2, "dram": {"channels": 8, "latency": 50}},
                                   "core": {"matrix": {"pci_candidates": [64, 32, 16, 8, 4]}}})");
  std::string top = dir.write("top.json", R"({"extends": "base/base.json",
                                               "chip": {"dram": {"latency": 70}},
                                               "core": {"matrix": {"pci_candidates": [32]}}})");
  HardwareConfig cfg = load_hardware_config(top);
  CHECK(cfg.chip.clusters == 2);          // from the base
  CHECK(cfg.chip.dram.channels == 8);     // sibling of an overridden key survives
  CHECK(cfg.chip.dram.latency == 70);     // override wins
  CHECK(cfg.core.block<MatrixUnitConfig>("matrix").pci_candidates == std::vector<std::uint32_t>{32});
  CHECK(cfg.chip.cores_per_cluster == default_hardware_config().chip.cores_per_cluster);

  json raw = load_config_json(top);
  CHECK_FALSE(raw.contains("extends"));
  CHECK(raw.at("/chip/dram/latency"_json_pointer) == 70);
  CHECK(raw.at("/core"_json_pointer).size() == 1);  // unvalidated: no defaults filled in
}

TEST_CASE("config: extends: chains of several files resolve relative to each file", "[config]") {
  ScratchDir dir;
  dir.write("a/b/grand.json", R"({"chip": {"name": "grand", "clusters": 4}})");
  dir.write("a/parent.json", R"({"extends": "b/grand.json", "chip": {"name": "parent"}})");
  std::string child = dir.write("child.json", R"({"extends": "a/parent.json", "chip": {"cores_per_cluster": 3}})");
  HardwareConfig cfg = load_hardware_config(child);
  CHECK(cfg.chip.name == "parent");
  CHECK(cfg.chip.clusters == 4);
  CHECK(cfg.chip.cores_per_cluster == 3);
}

TEST_CASE("config: extends: a cycle is reported, not followed", "[config]") {
  ScratchDir dir;
  dir.write("a.json", R"({"extends": "b.json"})");
  dir.write("b.json", R"({"extends": "c.json"})");
  dir.write("c.json", R"({"extends": "a.json"})");
  InputError e = expect_input_error([&] { load_hardware_config(dir.path("a.json")); });
  CHECK(e.location() == "/extends");
  CHECK_THAT(e.reason(), Contains("cycle"));
  CHECK_THAT(e.reason(), Contains("b.json") && Contains("c.json"));

  std::string self = dir.write("self.json", R"({"extends": "self.json"})");
  CHECK_THAT(expect_input_error([&] { load_config_json(self); }).reason(), Contains("cycle"));
}

TEST_CASE("config: extends: missing base file and bad extends value", "[config]") {
  ScratchDir dir;
  std::string top = dir.write("top.json", R"({"extends": "nowhere.json"})");
  InputError missing = expect_input_error([&] { load_hardware_config(top); });
  CHECK(missing.file() == top);
  CHECK(missing.location() == "/extends");
  CHECK_THAT(missing.reason(), Contains("nowhere.json"));

  std::string bad = dir.write("bad.json", R"({"extends": 3})");
  InputError wrong = expect_input_error([&] { load_hardware_config(bad); });
  CHECK(wrong.location() == "/extends");
  CHECK_THAT(wrong.reason(), Contains("string"));
}

TEST_CASE("config: missing config file gives a clear reason", "[config]") {
  ScratchDir dir;
  std::string path = dir.path("absent.json");
  InputError e = expect_input_error([&] { load_hardware_config(path); });
  CHECK(e.file() == path);
  CHECK_THAT(e.reason(), Contains("cannot read") && Contains("does not exist"));
  CHECK_THAT(expect_input_error([&] { load_hardware_config(dir.path("")); }).reason(), Contains("directory"));
}

TEST_CASE("config: malformed JSON reports line and column", "[config]") {
  ScratchDir dir;
  // The stray '}' is the 26th character of line 4.
  std::string path = dir.write("broken.json",
                               "{\n"
                               "  \"chip\": {\n"
                               "    \"clusters\": 2,\n"
                               "    \"cores_per_cluster\": }\n"
                               "}\n");
  InputError e = expect_input_error([&] { load_hardware_config(path); });
  CHECK(e.file() == path);
  CHECK(e.location() == "line 4, column 26");
  CHECK_THAT(e.reason(), Contains("malformed JSON"));
  CHECK_THAT(e.reason(), !Contains("json.exception"));

  std::string first_line = dir.write("early.json", "{\"chip\" 1}");
  CHECK(expect_input_error([&] { load_hardware_config(first_line); }).location() == "line 1, column 9");
}

TEST_CASE("config: a config file must hold an object", "[config]") {
  ScratchDir dir;
  std::string path = dir.write("list.json", "[1, 2]");
  InputError e = expect_input_error([&] { load_hardware_config(path); });
  CHECK(e.location() == "top level");
  CHECK_THAT(e.reason(), Contains("object"));
}

TEST_CASE("config: errors in a base file name the base file", "[config]") {
  ScratchDir dir;
  std::string base = dir.write("base.json", R"({"chip": {"dram": {"chanels": 2}}})");
  std::string top = dir.write("top.json", R"({"extends": "base.json", "chip": {"clusters": 0}})");
  InputError typo = expect_input_error([&] { load_hardware_config(top); });
  CHECK(typo.file() == base);
  CHECK(typo.location() == "/chip/dram/chanels");

  dir.write("base.json", R"({"chip": {"clusters": 2}})");
  InputError range = expect_input_error([&] { load_hardware_config(top); });
  CHECK(range.file() == top);
  CHECK(range.location() == "/chip/clusters");
}
