#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "apps/regression/CsvTable.h"
#include "sim/tensor/Npy.h"
#include "TestPaths.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A sweep spec over `input` ("trace" or "workload") on the default chip.
std::string write_spec(const std::string& dir, const json& axes, const std::string& input = "trace",
                       const std::string& file = "configs/sweeps/conv-compute.jsonl") {
  json spec = {{"config", source_path("configs/default.json")}, {input, source_path(file)}, {"axes", axes}};
  const std::string path = dir + "/spec.json";
  write_text(path, spec.dump(2));
  return path;
}

std::string write_tiny_spec(const std::string& dir, const json& axes) {
  return write_spec(dir, axes, "workload", "traces/workloads/tiny.json");
}

json slaves_axis(const json& values) { return {{"name", "slaves"}, {"pointer", "/core/matrix/slaves"}, {"values", values}}; }
json nram_axis(const json& values) { return {{"name", "nram"}, {"pointer", "/core/nram/capacity_bytes"}, {"values", values}}; }

struct Results {
  npusim::CsvTable table;
  std::string cell(std::size_t row, const std::string& column) const {
    for (std::size_t c = 0; c < table.header.size(); ++c)
      if (table.header[c] == column) return table.rows.at(row).at(c);
    FAIL("no column " << column);
    return "";
  }
};

Results read_results(const std::string& out) {
  return {npusim::parse_csv(read_text(out + "/results.csv"), "results.csv")};
}

NpusimResult sweep(const std::string& spec, const std::string& out, const std::string& jobs = "2") {
  auto r = run_npusim({"sweep", spec, "-j", jobs, "--out", out});
  INFO(r.output);
  REQUIRE(r.status == 0);
  return r;
}

// A spec that must be refused with exit 2 and `message`.
void expect_bad_spec(const std::string& dir, const json& bad, const std::string& message) {
  write_text(dir + "/bad.json", bad.dump());
  auto r = run_npusim({"sweep", dir + "/bad.json", "--out", dir + "/bad"});
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.find(message) != std::string::npos);
}

}  // namespace

// The layer of the tiny net the compiler marks as compute-bound.
long compute_bound_layer_cycles(const std::string& point_dir) {
  auto report = json::parse(read_text(point_dir + "/report.json"));
  for (const auto& row : report.at("workload").at("rows"))
    if (row.at("roofline_bound") == "compute") return row.at("cycles").get<long>();
  FAIL("no compute-bound layer in " << point_dir);
  return 0;
}

TEST_CASE("sweep slaves x NRAM on the tiny net: six rows, cycles non-increasing as slaves grow", "[sweep]") {
  const std::string dir = scratch_dir("sweep-grid");
  const std::string out = dir + "/out";
  sweep(write_tiny_spec(dir, {slaves_axis({4, 8, 16}), nram_axis({4096, 524288})}), out);
  const Results results = read_results(out);
  REQUIRE(results.table.rows.size() == 6);
  std::map<std::string, std::map<int, long>> cycles, layer_cycles;  // nram -> slaves -> cycles
  for (std::size_t i = 0; i < 6; ++i) {
    INFO("row " << i << ": " << results.cell(i, "error"));
    REQUIRE(results.cell(i, "status") == "ok");
    CHECK(results.cell(i, "index") == std::to_string(i));
    const std::string nram = results.cell(i, "nram");
    const int slaves = std::stoi(results.cell(i, "slaves"));
    cycles[nram][slaves] = std::stol(results.cell(i, "total_cycles"));
    CHECK(std::stod(results.cell(i, "mac_utilization")) > 0);
    CHECK(std::stod(results.cell(i, "dram_bytes")) > 0);
    // Each point directory is a run directory with the config it ran.
    const std::string point = out + "/points/" + results.cell(i, "point");
    layer_cycles[nram][slaves] = compute_bound_layer_cycles(point);
    auto config = json::parse(read_text(point + "/config.json"));
    CHECK(config.at("core").at("matrix").at("slaves").dump() == results.cell(i, "slaves"));
  }
  // First axis varies slowest: rows 0,1 are slaves=4.
  CHECK(results.cell(0, "slaves") == "4");
  CHECK(results.cell(1, "nram") == "524288");
  for (auto* table : {&cycles, &layer_cycles})
    for (auto& [nram, by_slaves] : *table) {
      INFO("nram " << nram);
      CHECK(by_slaves.at(4) >= by_slaves.at(8));
      CHECK(by_slaves.at(8) >= by_slaves.at(16));
      CHECK(by_slaves.at(4) > by_slaves.at(16));  // more slaves really help
    }
}

TEST_CASE("a resumed sweep reruns only the points that are not complete", "[sweep]") {
  const std::string dir = scratch_dir("sweep-resume");
  const std::string out = dir + "/out";
  const std::string spec = write_spec(dir, json::array({slaves_axis({4, 8, 16})}));
  auto first = sweep(spec, out);
  CHECK(first.output.find("3 points: 3 run, 0 skipped") != std::string::npos);
  const std::string csv = read_text(out + "/results.csv");
  const Results results = read_results(out);
  std::vector<fs::file_time_type> stamps;
  for (std::size_t i = 0; i < 3; ++i)
    stamps.push_back(fs::last_write_time(out + "/points/" + results.cell(i, "point") + "/report.json"));

  // As if the sweep had been killed while point 1 was running.
  fs::remove_all(out + "/points/" + results.cell(1, "point"));
  auto resumed = sweep(spec, out);
  INFO(resumed.output);
  CHECK(resumed.output.find("3 points: 1 run, 2 skipped") != std::string::npos);
  CHECK(fs::last_write_time(out + "/points/" + results.cell(0, "point") + "/report.json") == stamps[0]);
  CHECK(fs::last_write_time(out + "/points/" + results.cell(2, "point") + "/report.json") == stamps[2]);
  CHECK(read_text(out + "/results.csv") == csv);  // rebuilt identically from the point directories

  auto again = sweep(spec, out);
  CHECK(again.output.find("3 points: 0 run, 3 skipped") != std::string::npos);
}

namespace {

std::size_t complete_points(const std::string& out) {
  std::size_t n = 0;
  if (!fs::exists(out + "/points")) return n;
  for (const auto& e : fs::directory_iterator(out + "/points"))
    n += fs::exists(e.path() / "report.json") && fs::exists(e.path() / "config.json") &&
         fs::exists(e.path() / "point.json");
  return n;
}

}  // namespace

TEST_CASE("a sweep killed mid-way resumes without rerunning finished points", "[sweep]") {
  const std::string dir = scratch_dir("sweep-kill");
  const std::string out = dir + "/out";
  const std::string spec = write_tiny_spec(dir, json::array({slaves_axis({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})}));
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);  // its own group, so the kill below also takes the running point
    const int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, STDOUT_FILENO);
    dup2(devnull, STDERR_FILENO);
    execl(NPUSIM_BINARY, "npusim", "sweep", spec.c_str(), "-j", "1", "--out", out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (complete_points(out) < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  kill(-pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  const std::size_t finished = complete_points(out);
  INFO("finished before the kill: " << finished);
  REQUIRE(finished >= 2);
  REQUIRE(finished < 12);  // killed mid-way, not after the end
  CHECK_FALSE(fs::exists(out + "/results.csv"));

  auto resumed = sweep(spec, out);
  CHECK(resumed.output.find(fmt::format("12 points: {} run, {} skipped", 12 - finished, finished)) != std::string::npos);
  const Results results = read_results(out);
  REQUIRE(results.table.rows.size() == 12);
  for (std::size_t i = 0; i < 12; ++i) CHECK(results.cell(i, "status") == "ok");
}

TEST_CASE("invalid sweep points are failed rows and the sweep finishes", "[sweep]") {
  const std::string dir = scratch_dir("sweep-invalid");
  const std::string out = dir + "/out";
  // 0 slaves fails config validation; 1 KiB of NRAM cannot hold a row of the tiny net's conv1
  // with its int32 accumulators (so the result path must not requantize).
  const json accumulators = {{"name", "requantize"}, {"pointer", "/core/matrix/result_requantize"}, {"values", {false}}};
  const std::string spec = write_tiny_spec(
      dir, {{{"name", "slaves"}, {"pointer", "/core/matrix/slaves"}, {"values", {0, 16}}}, nram_axis({1024, 524288}),
            accumulators});
  auto r = sweep(spec, out);
  CHECK(r.output.find("4 points: 2 run, 0 skipped (already complete), 3 failed") != std::string::npos);
  const Results results = read_results(out);
  REQUIRE(results.table.rows.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    const bool valid = results.cell(i, "slaves") == "16" && results.cell(i, "nram") == "524288";
    INFO("row " << i << ": " << results.cell(i, "error"));
    CHECK(results.cell(i, "status") == (valid ? "ok" : "failed"));
    CHECK(results.cell(i, "error").empty() == valid);
    CHECK(results.cell(i, "total_cycles").empty() == !valid);
  }
  CHECK(results.cell(0, "error").find("/core/matrix/slaves") != std::string::npos);  // names the bad key
  CHECK(results.cell(2, "error").find("does not fit NRAM") != std::string::npos);
  // A failed point's directory is npusim's, so a resumed sweep's rerun may replace it.
  for (std::size_t i = 0; i < 4; ++i)
    CHECK(fs::is_regular_file(out + "/points/" + results.cell(i, "point") + "/.npusim-run"));
  auto again = sweep(spec, out);
  CHECK(again.output.find("4 points: 1 run, 1 skipped (already complete), 3 failed") != std::string::npos);
  CHECK(read_results(out).cell(2, "error").find("does not fit NRAM") != std::string::npos);
}

TEST_CASE("zip mode pairs axis values, spec errors are bad input", "[sweep]") {
  const std::string dir = scratch_dir("sweep-spec");
  json spec = {{"config", source_path("configs/default.json")},
               {"trace", source_path("traces/examples/relu.jsonl")},
               {"mode", "zip"},
               {"axes", {slaves_axis({8, 16}), nram_axis({262144, 524288})}}};
  write_text(dir + "/zip.json", spec.dump());
  sweep(dir + "/zip.json", dir + "/zip", "1");
  const Results zip = read_results(dir + "/zip");
  REQUIRE(zip.table.rows.size() == 2);
  CHECK(zip.cell(0, "point") == "000-slaves=8_nram=262144");
  CHECK(zip.cell(1, "point") == "001-slaves=16_nram=524288");

  auto expect_bad = [&](const json& bad, const std::string& message) { expect_bad_spec(dir, bad, message); };
  json uneven = spec;
  uneven["axes"][1]["values"] = {1, 2, 3};
  expect_bad(uneven, "zip mode needs equal lengths");
  json unknown = spec;
  unknown["axis"] = json::array();
  expect_bad(unknown, "/axis: unknown key");
  json missing = spec;
  missing["trace"] = "no-such-trace.jsonl";
  expect_bad(missing, "/trace: no such file");
  expect_bad(json::array(), "expected a JSON object");
  json shadowing = spec;
  shadowing["axes"][0]["name"] = "status";
  expect_bad(shadowing, "'status' is a results.csv column already");
  json backend = spec;
  backend["backend"] = "kubernetes";
  expect_bad(backend, "/backend: expected \"local\" or \"slurm\"");
  json slurm_key = spec;
  slurm_key["slurm"] = {{"nodes", 4}};
  expect_bad(slurm_key, "/slurm/nodes: unknown key");
  json per_task = spec;
  per_task["slurm"] = {{"points_per_task", 0}};
  expect_bad(per_task, "/slurm/points_per_task: expected a whole number from 1 to 1000000");
  json sbatch = spec;
  sbatch["slurm"] = {{"sbatch_args", {"--time=1", 5}}};
  expect_bad(sbatch, "/slurm/sbatch_args/1: expected a string");
  // Collecting a directory no job was submitted for says so.
  auto collect = run_npusim({"sweep", dir + "/zip.json", "--collect", "--out", dir + "/zip"});
  CHECK(collect.status == 2);
  CHECK(collect.output.find("no Slurm job was submitted for this sweep directory") != std::string::npos);
  // A trace given where the spec belongs says what the command wants.
  auto trace = run_npusim({"sweep", source_path("traces/examples/relu.jsonl"), "--out", dir + "/trace"});
  CHECK(trace.status == 2);
  CHECK(trace.output.find("this is an instruction trace; npusim sweep takes a sweep spec") != std::string::npos);
}

TEST_CASE("plot_sweep.py draws PNG and SVG charts from results.csv", "[sweep][heavy]") {
  const std::string dir = scratch_dir("sweep-plot");
  write_text(dir + "/results.csv",
             "index,point,slaves,nram,status,error,total_cycles\n"
             "0,a,4,1,ok,,400\n1,b,8,1,ok,,200\n2,c,4,2,ok,,390\n3,d,8,2,failed,too small,\n");
  const std::string script = "/usr/bin/python3 " + source_path("scripts/plot_sweep.py") + " " + dir + "/results.csv";
  REQUIRE(std::system((script + " -x slaves -y total_cycles --hue nram -o " + dir + "/c.png").c_str()) == 0);
  CHECK(read_text(dir + "/c.png").substr(1, 3) == "PNG");
  REQUIRE(std::system((script + " -x slaves -y total_cycles -o " + dir + "/c.svg").c_str()) == 0);
  CHECK(read_text(dir + "/c.svg").find("<svg") != std::string::npos);
  CHECK(std::system((script + " -x nope -y total_cycles -o " + dir + "/d.png 2>/dev/null").c_str()) != 0);
}

TEST_CASE("workload axes set a value in every listed element, each point keeps its workload", "[sweep]") {
  const std::string dir = scratch_dir("sweep-workload-axis");
  write_text(dir + "/net.json",
             R"({"input":{"h":8,"w":8,"c":8},"layers":[{"name":"a","type":"conv","co":8,"k":3,"padding":1,)"
             R"("relu":true},{"name":"b","type":"conv","co":8,"k":1}]})");
  const json zeros_axis = {{"name", "wzeros"}, {"in", "workload"}, {"pointer", "/layers/*/weight_sparsity"},
                           {"values", {0.0, 0.75}}};
  json spec = {{"config", source_path("configs/default.json")}, {"workload", dir + "/net.json"},
               {"functional", true}, {"axes", {slaves_axis({8, 16}), zeros_axis}}};
  write_text(dir + "/spec.json", spec.dump());
  sweep(dir + "/spec.json", dir + "/out");
  const Results results = read_results(dir + "/out");
  REQUIRE(results.table.rows.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    INFO("row " << i << ": " << results.cell(i, "error"));
    REQUIRE(results.cell(i, "status") == "ok");
    const std::string point = dir + "/out/points/" + results.cell(i, "point");
    const json w = json::parse(read_text(point + "/workload.json"));
    const double zeros = std::stod(results.cell(i, "wzeros"));
    for (const auto& layer : w.at("layers")) CHECK(layer.at("weight_sparsity").get<double>() == zeros);
    // The run really used it: the weights have exactly that fraction of zeros (0 leaves
    // plain random data, where a zero byte turns up now and then).
    const auto k = npusim::read_npy(point + "/tensors/a.weights.npy");
    const auto zero_bytes = std::count(k.data.begin(), k.data.end(), 0);
    if (zeros > 0) CHECK(zero_bytes == std::llround(zeros * double(k.data.size())));
    else CHECK(zero_bytes < 0.05 * double(k.data.size()));
  }
  // Resuming finds every point complete.
  auto again = sweep(dir + "/spec.json", dir + "/out");
  CHECK(again.output.find("4 points: 0 run, 4 skipped") != std::string::npos);

  auto expect_bad = [&](const json& bad, const std::string& message) { expect_bad_spec(dir, bad, message); };
  json on_trace = {{"config", source_path("configs/default.json")},
                   {"trace", source_path("traces/examples/relu.jsonl")}, {"axes", {zeros_axis}}};
  expect_bad(on_trace, "/axes/0/in: workload axes need a JSON \"workload\"");
  json bad_in = spec;
  bad_in["axes"][1]["in"] = "chip";
  expect_bad(bad_in, "/axes/1/in: expected \"config\" (default) or \"workload\"");
  write_text(dir + "/with-npy.json",
             R"({"input":{"h":8,"w":8,"c":8},"layers":[{"name":"a","type":"conv","co":8,"k":1,"weights":"k.npy"}]})");
  json npy = spec;
  npy["workload"] = dir + "/with-npy.json";
  expect_bad(npy, "workload axes need a workload without .npy files");
  // A '*' on something that is not a list fails that point, not the sweep.
  json not_list = spec;
  not_list["axes"][1]["pointer"] = "/input/*/h";
  write_text(dir + "/not-list.json", not_list.dump());
  sweep(dir + "/not-list.json", dir + "/not-list");
  CHECK(read_results(dir + "/not-list").cell(0, "error").find("is not one") != std::string::npos);
}
