// Where the energy account shows up: every engine and memory of every shipped
// chip, sweep columns, and npusim diff.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <sstream>

#include "e2e/NpusimProcess.h"
#include "energy/EnergyRuns.h"

using namespace energy_test;

TEST_CASE("energy: every shipped chip prices each of its engines and memories", "[energy][heavy]") {
  for (const auto& entry : std::filesystem::directory_iterator(source_path("configs"))) {
    if (entry.path().extension() != ".json") continue;
    const std::string config = entry.path().filename().string();
    DYNAMIC_SECTION(config) {
      const std::string dir = scratch_dir("energy-chips-" + config);
      const json r = run_report({"--config", entry.path().string(), "--workload",
                                 source_path("traces/workloads/tiny.json")}, dir + "/run");
      std::set<std::string> engines, priced;
      for (const auto& e : r["engines"]) engines.insert(e["name"].get<std::string>());
      for (const auto& e : r["energy"]["engines"]) priced.insert(e["name"].get<std::string>());
      CHECK(priced == engines);
      std::set<std::string> memories, priced_memories;  // buses are priced inside their engine
      for (const auto& m : r["memories"])
        if (m["kind"] != "bus") memories.insert(m["name"].get<std::string>());
      for (const auto& m : r["energy"]["memories"]) priced_memories.insert(m["name"].get<std::string>());
      CHECK(priced_memories == memories);
      double area = 0;
      for (const auto& c : r["area"]["components"]) area += c["mm2"].get<double>();
      CHECK(area == Approx(r["area"]["total_mm2"].get<double>()).epsilon(1e-12));
      // With the default table, which prices every action and area above zero, every engine
      // that ran an instruction did something it prices (eyeriss-ratios leaves DMAs free).
      if (r["energy"]["table_name"] != "default-16nm") continue;
      CHECK(area > 0);
      for (const auto& e : r["engines"])
        if (e["instructions"].get<int>() > 0) CHECK(row_named(r["energy"]["engines"], e["name"])["dynamic_pj"] > 0);
    }
  }
}

namespace {
std::map<std::string, std::string> csv_row(const std::string& csv, std::size_t index) {
  std::istringstream in(csv);
  std::string header, line;
  std::getline(in, header);
  for (std::size_t i = 0; i <= index; ++i) std::getline(in, line);
  auto split = [](const std::string& s) {
    std::vector<std::string> cells;
    std::stringstream ss(s);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    return cells;
  };
  const auto names = split(header), cells = split(line);
  std::map<std::string, std::string> row;
  for (std::size_t c = 0; c < names.size() && c < cells.size(); ++c) row[names[c]] = cells[c];
  return row;
}
}  // namespace

TEST_CASE("energy: sweeps list energy, energy x delay and area per point", "[energy]") {
  const std::string dir = scratch_dir("energy-sweep");
  write_text(dir + "/spec.json",
             json{{"config", source_path("configs/default.json")},
                  {"trace", source_path("configs/sweeps/conv-compute.jsonl")},
                  {"axes", {{{"name", "slaves"}, {"pointer", "/core/matrix/slaves"}, {"values", {4, 16}}}}}}
                 .dump());
  const NpusimResult s = run_npusim({"sweep", dir + "/spec.json", "--quiet", "-j", "1", "--out", dir + "/sw"});
  INFO(s.output);
  REQUIRE(s.status == 0);
  const std::string csv = read_text(dir + "/sw/results.csv");
  for (std::size_t i = 0; i < 2; ++i) {
    const auto row = csv_row(csv, i);
    const json r = json::parse(read_text(dir + "/sw/points/" + row.at("point") + "/report.json"));
    const double pj = r["energy"]["total_pj"], us = r["time_us"];
    CHECK(std::stod(row.at("energy_pj")) == Approx(pj).epsilon(1e-5));
    CHECK(std::stod(row.at("edp")) == Approx(pj * 1e-12 * us * 1e-6).epsilon(1e-5));
    CHECK(std::stod(row.at("area_mm2")) == Approx(r["area"]["total_mm2"].get<double>()).epsilon(1e-5));
  }
  // More slave circuits: more MAC units, so more area.
  CHECK(std::stod(csv_row(csv, 1).at("area_mm2")) > std::stod(csv_row(csv, 0).at("area_mm2")));
}

TEST_CASE("energy: npusim diff compares energy like any other figure", "[energy]") {
  const std::string dir = scratch_dir("energy-diff");
  json t = json::parse(read_text(source_path("configs/energy/default-16nm.json")));
  t["classes"]["dram"]["actions_pj"]["read"] = 325.0;
  write_text(dir + "/dear-dram.json", t.dump());
  const std::string config = write_config(dir, "chip.json", "default.json", {{"chip", {{"energy_table", "dear-dram.json"}}}});
  const std::string trace = source_path("traces/examples/relu.jsonl");
  run_report({"--trace", trace}, dir + "/a");
  run_report({"--config", config, "--trace", trace}, dir + "/b");
  const NpusimResult d = run_npusim({"diff", dir + "/a", dir + "/b", "--metric", "total_pj", "dynamic_pj"});
  INFO(d.output);
  CHECK(d.status == 1);
  CHECK_THAT(d.output, Catch::Contains("energy.classes") && Catch::Contains("dram"));
  CHECK_THAT(d.output, Catch::Contains("energy.memories") && Catch::Contains("dram.ch0"));
  CHECK_THAT(d.output, Catch::Contains("total_pj"));
  // Timing is the same: only energy differs.
  CHECK(run_npusim({"diff", dir + "/a", dir + "/b", "--metric", "total_cycles", "end"}).status == 0);
}

TEST_CASE("energy charts: plot_sweep.py --pareto finds the front, plot_energy.py draws a run", "[energy][heavy]") {
  const std::string dir = scratch_dir("energy-charts");
  // b beats a on both; c is faster than b but dearer; d is dominated by b; e failed.
  write_text(dir + "/results.csv",
             "index,point,slaves,status,error,total_cycles,energy_pj\n"
             "0,a,4,ok,,400,90\n1,b,8,ok,,300,50\n2,c,16,ok,,200,70\n3,d,16,ok,,350,60\n4,e,32,failed,x,,\n");
  const std::string plot = "/usr/bin/python3 " + source_path("scripts/plot_sweep.py") + " " + dir + "/results.csv" +
                           " -x total_cycles -y energy_pj --pareto --hue slaves --label point -o " + dir + "/front.png";
  REQUIRE(std::system((plot + " > " + dir + "/front.txt").c_str()) == 0);
  CHECK(read_text(dir + "/front.png").substr(1, 3) == "PNG");
  CHECK(read_text(dir + "/front.txt") ==
        "front: total_cycles=200 energy_pj=70 c\nfront: total_cycles=300 energy_pj=50 b\nwrote " + dir + "/front.png\n");

  run_report({"--workload", source_path("traces/workloads/tiny.json")}, dir + "/tiny");
  const std::string energy = "/usr/bin/python3 " + source_path("scripts/plot_energy.py") + " ";
  REQUIRE(std::system((energy + dir + "/tiny/report.json -o " + dir + "/tiny.svg > /dev/null").c_str()) == 0);
  CHECK(read_text(dir + "/tiny.svg").find("<svg") != std::string::npos);
  // A trace run has no layers to draw.
  run_report({"--trace", source_path("traces/examples/relu.jsonl")}, dir + "/relu");
  CHECK(std::system((energy + dir + "/relu/report.json -o " + dir + "/relu.png 2>/dev/null").c_str()) != 0);
}
