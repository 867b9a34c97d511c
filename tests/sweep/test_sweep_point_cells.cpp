// A sweep's results row for one point (apps/sweep/SweepResults.h) reads report.json without its
// per-instruction rows and takes the MACs from the energy account (issue 36): the row must equal
// what the whole report and instructions.csv say, and not depend on whether the run kept its rows.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "apps/sweep/SweepResults.h"
#include "e2e/NpusimProcess.h"

namespace {

// A point directory as a sweep leaves it: the run's folder plus its resolved config.json.
std::string run_point(const std::string& dir, const std::string& rows) {
  auto r = run_npusim({"run", "--quiet", "--workload", source_path("traces/workloads/tiny.json"), "--rows", rows,
                       "--out", dir});
  INFO(r.output);
  REQUIRE(r.status == 0);
  auto config = run_npusim({"validate", source_path("configs/default.json")});
  REQUIRE(config.status == 0);
  write_text(dir + "/" + npusim::kConfigFile, config.output);
  return dir;
}

// The sum of instructions.csv's last column (macs), line by line.
double csv_macs(const std::string& path) {
  std::istringstream in(read_text(path));
  std::string line;
  std::getline(in, line);
  REQUIRE(line.substr(line.rfind(',') + 1) == "macs");
  double sum = 0;
  while (std::getline(in, line)) sum += std::stod(line.substr(line.rfind(',') + 1));
  return sum;
}

}  // namespace

TEST_CASE("sweep results: a point's row equals its whole report and instructions.csv", "[sweep][rows]") {
  const std::string dir = run_point(scratch_dir("sweep-cells") + "/all", "all");
  const npusim::PointCells cells = npusim::point_cells(dir);
  const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
  REQUIRE_FALSE(report.at("instruction_rows").empty());
  CHECK(cells.at("status") == "ok");
  CHECK(cells.at("total_cycles") == report.at("total_cycles").dump());
  CHECK(std::stod(cells.at("macs")) == csv_macs(dir + "/instructions.csv"));
  CHECK(std::stod(cells.at("macs")) > 0);
  CHECK(cells.count("mac_utilization") == 1);
  CHECK(cells.count("energy_pj") == 1);
  for (const auto& e : report.at("engines")) CHECK(cells.count("util." + e.at("name").get<std::string>()) == 1);
}

TEST_CASE("sweep results: a point run with --rows none gives the same row as --rows all", "[sweep][rows]") {
  const std::string root = scratch_dir("sweep-cells-rows");
  const npusim::PointCells all = npusim::point_cells(run_point(root + "/all", "all"));
  const std::string none = run_point(root + "/none", "none");
  CHECK_FALSE(std::filesystem::exists(none + "/instructions.csv"));
  CHECK(npusim::point_cells(none) == all);
}

TEST_CASE("sweep spec \"rows\": every point runs with that --rows, other values are bad input", "[sweep][rows]") {
  const std::string dir = scratch_dir("sweep-spec-rows");
  const std::string spec = "{\"config\": \"" + source_path("configs/default.json") + "\", \"workload\": \"" +
                           source_path("traces/workloads/tiny.json") +
                           "\", \"rows\": \"none\", \"axes\": [{\"name\": \"clock\", \"pointer\": \"/chip/clock_mhz\", "
                           "\"values\": [500, 1000]}]}";
  write_text(dir + "/spec.json", spec);
  auto r = run_npusim({"sweep", "--quiet", "--out", dir + "/out", dir + "/spec.json"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::size_t points = 0;
  for (const auto& p : std::filesystem::directory_iterator(dir + "/out/points")) {
    ++points;
    CHECK_FALSE(std::filesystem::exists(p.path() / "instructions.csv"));
    CHECK(nlohmann::json::parse(read_text((p.path() / "report.json").string())).at("rows").at("written") == "none");
    CHECK(npusim::point_cells(p.path().string()).at("macs") != "");
  }
  CHECK(points == 2);
  write_text(dir + "/bad.json", std::string(spec).replace(spec.find("\"none\""), 6, "\"some\""));
  r = run_npusim({"sweep", "--quiet", "--out", dir + "/bad-out", dir + "/bad.json"});
  CHECK(r.status == 2);
  CHECK(r.output.find("/rows") != std::string::npos);
}
