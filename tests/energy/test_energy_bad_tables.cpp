// Broken energy tables: one message naming the file, the place and the reason,
// exit status 2, and no run directory.
#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/NpusimProcess.h"
#include "energy/EnergyRuns.h"

using namespace energy_test;

namespace {

json shipped_table() { return json::parse(read_text(source_path("configs/energy/default-16nm.json"))); }

// Runs the relu example on `config`; returns npusim's output after checking the refusal.
std::string refused(const std::string& config, const std::string& dir) {
  const std::string out = dir + "/run";
  const NpusimResult r =
      run_npusim({"run", "--quiet", "--config", config, "--trace", source_path("traces/examples/relu.jsonl"), "--out", out});
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(!std::filesystem::exists(out));
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);  // one message
  return r.output;
}

// A config naming `table` (written next to it as table.json) on the default chip, or on `base`.
std::string config_with_table(const std::string& dir, const std::string& table_text, const std::string& base = "default.json") {
  write_text(dir + "/table.json", table_text);
  return write_config(dir, "chip.json", base, {{"chip", {{"energy_table", "table.json"}}}});
}

}  // namespace

TEST_CASE("energy tables: a broken table is refused with its file and place", "[energy]") {
  struct Case {
    std::string what;
    std::function<std::string()> table;  // the table's text
    std::string place;                   // JSON pointer or position in table.json
    std::string reason;
  };
  auto edited = [](std::function<void(json&)> edit) {
    return [edit] {
      json t = shipped_table();
      edit(t);
      return t.dump(2);
    };
  };
  const std::vector<Case> cases = {
      {"bad JSON", [] { return std::string("{\"name\": \"x\",\n  \"classes\": {\n"); }, "line 3", ""},
      {"negative energy", edited([](json& t) { t["classes"]["dram"]["actions_pj"]["read"] = -1.5; }),
       "/classes/dram/actions_pj/read", "must not be negative"},
      {"unknown class", edited([](json& t) { t["classes"]["macs"] = t["classes"]["mac"]; }), "/classes/macs",
       "unknown class 'macs' (did you mean 'mac'?)"},
      {"missing action", edited([](json& t) { t["classes"]["mac"]["actions_pj"].erase("float16"); }),
       "/classes/mac/actions_pj/float16", "is missing"},
      {"unknown action", edited([](json& t) { t["classes"]["sram"]["actions_pj"]["erase"] = 1.0; }),
       "/classes/sram/actions_pj/erase", "unknown action of sram"},
      {"text for a number", edited([](json& t) { t["classes"]["bus"]["area_mm2"] = "small"; }),
       "/classes/bus/area_mm2", "expected a number"},
      {"missing area", edited([](json& t) { t["classes"]["dma"].erase("area_mm2"); }), "/classes/dma/area_mm2",
       "is missing"},
      {"scaling on a fixed class", edited([](json& t) { t["classes"]["dram"]["capacity_exponent"] = 0.5; }),
       "/classes/dram/capacity_exponent", "unknown key"},
      {"class the chip needs", edited([](json& t) { t["classes"].erase("vector"); }), "/classes/vector",
       "is missing; the chip needs it for core0.vector"},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.what) {
      const std::string dir = scratch_dir("energy-bad");
      const std::string message = refused(config_with_table(dir, c.table()), dir);
      CHECK_THAT(message, Catch::Contains(dir + "/table.json: " + c.place));
      CHECK_THAT(message, Catch::Contains(c.reason));
    }
  }
}

TEST_CASE("energy tables: the sparse cluster needs the Benes switch class", "[energy]") {
  const std::string dir = scratch_dir("energy-bad-sparse");
  json t = shipped_table();
  t["classes"].erase("min_switch");
  const std::string message = refused(config_with_table(dir, t.dump(), "sparse.json"), dir);
  CHECK_THAT(message, Catch::Contains("table.json: /classes/min_switch: is missing; the chip needs it for core0.sparse"));
}

TEST_CASE("energy tables: a table that cannot be found is blamed on the config that names it", "[energy]") {
  const std::string dir = scratch_dir("energy-missing");
  // The base config sits in its own folder and names a table that is not there; a
  // config elsewhere extends it: the message names the base file.
  std::filesystem::create_directories(dir + "/base");
  const std::string base =
      write_config(dir + "/base", "base.json", "default.json", {{"chip", {{"energy_table", "tables/nothere.json"}}}});
  write_text(dir + "/top.json", json{{"extends", base}, {"chip", {{"name", "top"}}}}.dump());
  const std::string message = refused(dir + "/top.json", dir);
  CHECK_THAT(message, Catch::Contains(base + ": /chip/energy_table: cannot read the energy table '" + dir +
                                      "/base/tables/nothere.json'"));

  const std::string unknown = write_config(dir, "unknown.json", "default.json", {{"chip", {{"energy_table", "default-7nm"}}}});
  const std::string refusal = refused(unknown, dir);
  CHECK_THAT(refusal, Catch::Contains(unknown + ": /chip/energy_table: 'default-7nm' is neither a shipped energy table"));
  CHECK_THAT(refusal, Catch::Contains("default-16nm") && Catch::Contains("nor a .json file"));
}

TEST_CASE("energy tables: a relative table is found next to the config that names it", "[energy]") {
  const std::string dir = scratch_dir("energy-relative");
  std::filesystem::create_directories(dir + "/base/tables");
  json t = shipped_table();
  t["name"] = "relative";
  write_text(dir + "/base/tables/mine.json", t.dump());
  const std::string base =
      write_config(dir + "/base", "base.json", "default.json", {{"chip", {{"energy_table", "tables/mine.json"}}}});
  write_text(dir + "/top.json", json{{"extends", base}}.dump());
  const json r = run_report({"--config", dir + "/top.json", "--trace", source_path("traces/examples/relu.jsonl")},
                            dir + "/run");
  CHECK(r["energy"]["table"] == "mine.json");
  CHECK(r["energy"]["table_name"] == "relative");
}
