#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include "e2e/NpusimProcess.h"
#include "sim/common/InputError.h"
#include "apps/regression/RunDiff.h"

namespace fs = std::filesystem;

namespace {

std::string conv_trace() { return source_path("traces/examples/conv.jsonl"); }

std::string run_conv(const std::string& dir, const std::string& name, const std::string& config) {
  const std::string out = dir + "/" + name;
  auto r = run_npusim({"run", "--quiet", "--config", config, "--trace", conv_trace(), "--out", out});
  INFO(r.output);
  REQUIRE(r.status == 0);
  return out;
}

// The default chip with fewer CUs per slave circuit: the conv takes longer, and
// the report keeps the same rows (a different slave count would add or drop the
// per-slave rows, which no tolerance accepts).
std::string two_cu_config(const std::string& dir) {
  const std::string path = dir + "/two-cus.json";
  write_text(path, "{\"extends\": \"" + source_path("configs/default.json") +
                       "\", \"core\": {\"matrix\": {\"cus_per_slave\": 2}}}\n");
  return path;
}

npusim::RunOutputs outputs(nlohmann::ordered_json report, const std::string& csv) {
  npusim::RunOutputs run;
  run.report = std::move(report);
  run.instructions.header = {"id", "op", "end"};
  if (!csv.empty()) run.instructions.rows.push_back({"0", "load", csv});
  return run;
}

}  // namespace

TEST_CASE("diff of two identical runs exits 0", "[diff]") {
  const std::string dir = scratch_dir("diff-same");
  const std::string a = run_conv(dir, "a", source_path("configs/default.json"));
  const std::string b = run_conv(dir, "b", source_path("configs/default.json"));
  auto r = run_npusim({"diff", a, b});
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(r.output.find("no differences (exact)") != std::string::npos);
}

TEST_CASE("diff lists the rows a config change altered and exits 1", "[diff]") {
  const std::string dir = scratch_dir("diff-change");
  const std::string a = run_conv(dir, "a", source_path("configs/default.json"));
  const std::string b = run_conv(dir, "b", two_cu_config(dir));
  auto r = run_npusim({"diff", a, b, "--max-rows", "0"});
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK(r.output.find("total_cycles") != std::string::npos);
  CHECK(r.output.find("core0.matrix") != std::string::npos);       // per-engine figures
  CHECK(std::regex_search(r.output, std::regex("\n  instruction +2 ")));  // the conv's timing row
  CHECK(r.output.find("figures differ (exact)") != std::string::npos);

  SECTION("a tolerance wider than the change accepts it") {
    auto wide = run_npusim({"diff", a, b, "--tolerance", "100000"});
    INFO(wide.output);
    CHECK(wide.status == 0);
  }
  SECTION("--metric restricts the comparison") {
    auto only = run_npusim({"diff", a, b, "--metric", "total_cycles"});
    INFO(only.output);
    CHECK(only.status == 1);
    CHECK(only.output.find("core0.matrix") == std::string::npos);
    auto unchanged = run_npusim({"diff", a, b, "--metric", "instructions"});
    CHECK(unchanged.status == 0);
    auto unknown = run_npusim({"diff", a, b, "--metric", "no_such_metric"});
    CHECK(unknown.status == 2);
    CHECK(unknown.output.find("no_such_metric") != std::string::npos);
  }
}

TEST_CASE("diff reports bad input with status 2 and one message", "[diff]") {
  const std::string dir = scratch_dir("diff-bad");
  const std::string a = run_conv(dir, "a", source_path("configs/default.json"));
  fs::copy(a, dir + "/b", fs::copy_options::recursive);

  SECTION("missing directory") {
    auto r = run_npusim({"diff", a, dir + "/nowhere"});
    CHECK(r.status == 2);
    CHECK(r.output.find("nowhere: no such run directory") != std::string::npos);
  }
  SECTION("missing instructions.csv") {
    fs::remove(dir + "/b/instructions.csv");
    auto r = run_npusim({"diff", a, dir + "/b"});
    CHECK(r.status == 2);
    CHECK(r.output.find("instructions.csv: file does not exist") != std::string::npos);
  }
  SECTION("malformed report.json") {
    write_text(dir + "/b/report.json", "{\"total_cycles\": ");
    auto r = run_npusim({"diff", a, dir + "/b"});
    CHECK(r.status == 2);
    CHECK(r.output.find("report.json: line 1, column 18: malformed JSON") != std::string::npos);
  }
  SECTION("negative tolerance") {
    auto r = run_npusim({"diff", a, dir + "/b", "--tolerance", "-1"});
    CHECK(r.status == 2);
  }
}

TEST_CASE("diff compares layer rows by name and notices added and removed rows", "[diff]") {
  using nlohmann::ordered_json;
  ordered_json a = {{"total_cycles", 100},
                    {"layers", {{{"name", "conv1"}, {"cycles", 60}}, {{"name", "pool1"}, {"cycles", 40}}}}};
  ordered_json b = {{"total_cycles", 100},
                    {"layers", {{{"name", "conv1"}, {"cycles", 63}}, {{"name", "fc"}, {"cycles", 37}}}}};
  npusim::DiffOptions options;
  auto result = npusim::diff_runs(outputs(a, "10"), outputs(b, "10"), options);
  REQUIRE(result.differences.size() == 5);  // conv1 changed, pool1 gone (2 fields), fc new (2 fields)
  const auto& changed = result.differences[0];
  CHECK(changed.section == "layer");
  CHECK(changed.item == "conv1");
  CHECK(changed.metric == "cycles");
  REQUIRE(changed.change_pct);
  CHECK(*changed.change_pct == Approx(5.0));
  CHECK(result.differences[1].b == "-");
  CHECK(result.differences[3].a == "-");

  SECTION("the tolerance is relative and inclusive") {
    options.metrics = {"cycles"};
    options.tolerance_pct = 5.0;
    auto within = npusim::diff_runs(outputs(a, "10"), outputs(b, "10"), options);
    CHECK(within.differences.size() == 2);  // conv1 is now within; the removed and added rows stay
    options.tolerance_pct = 4.9;
    CHECK(npusim::diff_runs(outputs(a, "10"), outputs(b, "10"), options).differences.size() == 3);
  }
  SECTION("instruction timings are compared by id") {
    auto timing = npusim::diff_runs(outputs(a, "10"), outputs(a, "12"), options);
    REQUIRE(timing.differences.size() == 1);
    CHECK(timing.differences[0].section == "instruction");
    CHECK(timing.differences[0].item == "0");
    CHECK(timing.differences[0].metric == "end");
  }
  SECTION("a zero that becomes non-zero is a difference at any tolerance") {
    options.tolerance_pct = 1e9;
    ordered_json zero = {{"total_cycles", 0}};
    ordered_json one = {{"total_cycles", 1}};
    CHECK(npusim::diff_runs(outputs(zero, ""), outputs(one, ""), options).differences.size() == 1);
  }
}

TEST_CASE("diff lists per-layer rows of a workload run by layer name", "[diff]") {
  const std::string dir = scratch_dir("diff-layers");
  const std::string tiny = source_path("traces/workloads/tiny.json");
  for (const auto& [name, config] : {std::pair<std::string, std::string>{"a", source_path("configs/default.json")},
                                     {"b", two_cu_config(dir)}}) {
    auto r = run_npusim({"run", "--quiet", "--config", config, "--workload", tiny, "--out", dir + "/" + name});
    INFO(r.output);
    REQUIRE(r.status == 0);
  }
  auto r = run_npusim({"diff", dir + "/a", dir + "/b", "--metric", "cycles", "--max-rows", "0"});
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK(r.output.find("\n  layer ") != std::string::npos);  // workload.rows, matched by name
  CHECK(r.output.find(" conv1 ") != std::string::npos);
}
