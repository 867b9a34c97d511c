// `npusim run --rows none|layers|all` on a bundled workload: which files and rows the run
// folder gets, the report's "rows" field and the summary's line; the default is today's folder.
#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

NpusimResult run_tiny(const std::string& out, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"run", "--workload", source_path("traces/workloads/tiny.json"), "--out", out};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_npusim(args);
}

}  // namespace

TEST_CASE("run --rows: all is the default for a small workload, layers and none leave rows out", "[e2e][rows]") {
  const std::string dir = scratch_dir("run-rows");
  for (const std::string rows : {"", "all", "layers", "none"}) {
    INFO("--rows " << rows);
    const std::string out = dir + "/" + (rows.empty() ? "default" : rows);
    const NpusimResult r = run_tiny(out, rows.empty() ? std::vector<std::string>{} : std::vector<std::string>{"--rows", rows});
    INFO(r.output);
    REQUIRE(r.status == 0);
    const json report = json::parse(read_text(out + "/report.json"));
    const bool instructions = rows.empty() || rows == "all";
    CHECK(fs::exists(out + "/instructions.csv") == instructions);
    CHECK(report.at("instruction_rows").size() == (instructions ? report.at("instructions").get<std::size_t>() : 0));
    CHECK(report.at("workload").contains("rows") == (rows != "none"));
    CHECK((r.output.find("\n  rows          ") != std::string::npos) == !instructions);  // the summary says so
    CHECK((r.output.find("\nlayer ") != std::string::npos) == (rows != "none"));  // the per-layer table
    if (instructions) {
      CHECK_FALSE(report.contains("rows"));
    } else {
      CHECK(report.at("rows").at("written") == rows);
    }
  }
  CHECK(read_text(dir + "/default/report.json") == read_text(dir + "/all/report.json"));
  CHECK(read_text(dir + "/default/instructions.csv") == read_text(dir + "/all/instructions.csv"));
}

TEST_CASE("run --rows: an unknown value is refused with exit 2", "[e2e][rows]") {
  const NpusimResult r = run_tiny(scratch_dir("run-rows-bad") + "/run", {"--rows", "some"});
  CHECK(r.status == 2);
  CHECK(r.output.find("--rows") != std::string::npos);
}

TEST_CASE("diff: runs that left their instruction rows out compare as having none", "[e2e][rows][diff]") {
  const std::string dir = scratch_dir("run-rows-diff");
  for (const std::string rows : {"all", "layers"})
    for (const std::string copy : {"a", "b"}) REQUIRE(run_tiny(dir + "/" + rows + "-" + copy, {"--quiet", "--rows", rows}).status == 0);
  const NpusimResult same = run_npusim({"diff", dir + "/layers-a", dir + "/layers-b"});
  INFO(same.output);
  CHECK(same.status == 0);
  // Against a run that kept them, every instruction row is missing on one side.
  const NpusimResult differ = run_npusim({"diff", dir + "/all-a", dir + "/layers-a"});
  INFO(differ.output);
  CHECK(differ.status == 1);
  // A run whose report does not say it left them out still needs its instructions.csv.
  std::filesystem::remove(dir + "/all-b/instructions.csv");
  CHECK(run_npusim({"diff", dir + "/all-a", dir + "/all-b"}).status == 2);
}
