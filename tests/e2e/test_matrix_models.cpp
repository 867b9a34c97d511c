// `npusim run --matrix-model`: the fast model and the cycle-stepped reference on whole
// workloads (issue 12, docs/fidelity.md). Same tensors byte for byte; conv cycles compared
// per instruction and per layer.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "apps/regression/CsvTable.h"
#include "e2e/NpusimProcess.h"

namespace fs = std::filesystem;

namespace {

constexpr double kMaxError = 0.01;  // docs/fidelity.md: the bound asserted per instruction and layer

std::string run_model(const std::string& dir, const std::string& model, const std::vector<std::string>& extra) {
  const std::string out = dir + "/" + model;
  std::vector<std::string> args = {"run", "--quiet", "--matrix-model", model, "--out", out};
  args.insert(args.end(), extra.begin(), extra.end());
  const NpusimResult r = run_npusim(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
  return out;
}

double relative(double fast, double stepped) { return std::fabs(fast - stepped) / std::max(1.0, stepped); }

// Conv instructions' cycles (end - start) by instruction id.
std::map<std::string, double> conv_cycles(const std::string& run) {
  const npusim::CsvTable t = npusim::parse_csv(read_text(run + "/instructions.csv"), "instructions.csv");
  auto column = [&](const char* name) {
    for (std::size_t c = 0; c < t.header.size(); ++c)
      if (t.header[c] == name) return c;
    FAIL("no column " << name);
    return std::size_t(0);
  };
  const std::size_t id = column("id"), op = column("op"), start = column("start"), end = column("end");
  std::map<std::string, double> cycles;
  for (const auto& row : t.rows)
    if (row[op] == "conv") cycles[row[id]] = std::stod(row[end]) - std::stod(row[start]);
  return cycles;
}

}  // namespace

TEST_CASE("matrix model cycle-stepped: the tiny net's tensors are identical and its convs agree in cycles",
          "[e2e][matrix_unit][fidelity]") {
  const std::string dir = scratch_dir("matrix-models");
  const std::vector<std::string> workload = {"--functional", "--workload", source_path("traces/workloads/tiny.json")};
  const std::string fast = run_model(dir, "fast", workload), stepped = run_model(dir, "cycle-stepped", workload);

  std::size_t tensors = 0;
  for (const auto& entry : fs::directory_iterator(fast + "/tensors")) {
    const std::string name = entry.path().filename().string();
    INFO(name);
    REQUIRE(fs::exists(stepped + "/tensors/" + name));
    CHECK(read_text(entry.path().string()) == read_text(stepped + "/tensors/" + name));
    ++tensors;
  }
  CHECK(tensors >= 9);  // every layer's output

  const auto a = conv_cycles(fast), b = conv_cycles(stepped);
  REQUIRE(a.size() == b.size());
  REQUIRE(!a.empty());
  for (const auto& [id, cycles] : a) {
    INFO("conv instruction " << id << ": fast " << cycles << ", stepped " << b.at(id));
    CHECK(relative(cycles, b.at(id)) <= kMaxError);
  }
  const auto fast_report = nlohmann::json::parse(read_text(fast + "/report.json"));
  const auto stepped_report = nlohmann::json::parse(read_text(stepped + "/report.json"));
  const auto& rows = fast_report.at("workload").at("rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double f = rows[i].at("cycles").get<double>();
    const double s = stepped_report.at("workload").at("rows").at(i).at("cycles").get<double>();
    INFO("layer " << rows[i].at("name") << ": fast " << f << ", stepped " << s);
    CHECK(relative(f, s) <= kMaxError);
  }
}

TEST_CASE("matrix model cycle-stepped on ResNet-50 (timing): whole-network cycles agree", "[e2e][matrix_unit][fidelity]") {
  const std::string dir = scratch_dir("matrix-models-resnet50");
  const auto fast = nlohmann::json::parse(read_text(run_model(dir, "fast", {}) + "/report.json"));
  const auto stepped = nlohmann::json::parse(read_text(run_model(dir, "cycle-stepped", {}) + "/report.json"));
  INFO("fast " << fast.at("total_cycles") << ", stepped " << stepped.at("total_cycles"));
  CHECK(relative(fast.at("total_cycles").get<double>(), stepped.at("total_cycles").get<double>()) <= kMaxError);
}

TEST_CASE("matrix model: run --matrix-model refuses an unknown model with exit status 2", "[e2e][matrix_unit]") {
  const NpusimResult r = run_npusim({"run", "--quiet", "--matrix-model", "exact", "--out", scratch_dir("bad-model") + "/o"});
  CHECK(r.status == 2);
  CHECK(r.output.find("--matrix-model") != std::string::npos);
}

TEST_CASE("matrix model: a trace that requantizes on the result path, on a chip that cannot, exits 2 naming the line",
          "[e2e][matrix_unit]") {
  const std::string dir = scratch_dir("no-result-requantize");
  const NpusimResult compiled = run_npusim({"compile", "--quiet", "--workload",
                                            source_path("traces/workloads/tiny.json"), "--out", dir + "/tiny.jsonl"});
  INFO(compiled.output);
  REQUIRE(compiled.status == 0);
  REQUIRE(read_text(dir + "/tiny.jsonl").find("\"shift\"") != std::string::npos);
  write_text(dir + "/config.json", "{\"extends\": \"" + source_path("configs/default.json") +
                                       "\", \"core\": {\"matrix\": {\"result_requantize\": false}}}");
  const NpusimResult r = run_npusim({"run", "--quiet", "--config", dir + "/config.json", "--trace",
                                     dir + "/tiny.jsonl", "--out", dir + "/run"});
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.find("params.shift") != std::string::npos);
  CHECK(r.output.find("result_requantize") != std::string::npos);
  CHECK_FALSE(fs::exists(dir + "/run"));
}

// Issue 33: with the master's requests timed, strided reads (ci 47) and banked NRAM and WRAM,
// both models still agree; the banks queue the unit's bookings behind the DMAs'.
TEST_CASE("matrix model cycle-stepped with strided reads, the relay and banked NRAM: tensors identical, convs agree",
          "[e2e][matrix_unit][fidelity][banks]") {
  const std::string dir = scratch_dir("matrix-models-banked");
  for (const char* relay : {"false", "true"}) {
    INFO("relay " << relay);
    const std::string config = dir + "/config-" + relay + ".json";
    write_text(config, "{\"extends\": \"" + source_path("configs/default.json") +
                           "\", \"core\": {\"nram\": {\"banks\": {\"count\": 8}}, \"wram\": {\"banks\": {\"count\": 4}}, "
                           "\"matrix\": {\"relay_enabled\": " + relay + ", \"relay_bytes\": 4096}}}");
    const std::vector<std::string> args = {"--functional", "--config", config, "--workload",
                                           source_path("configs/sweeps/sram-ci.workload.json")};
    const std::string fast = run_model(dir + "/" + relay, "fast", args);
    const std::string stepped = run_model(dir + "/" + relay, "cycle-stepped", args);
    for (const auto& entry : fs::directory_iterator(fast + "/tensors"))
      CHECK(read_text(entry.path().string()) == read_text(stepped + "/tensors/" + entry.path().filename().string()));
    const auto a = conv_cycles(fast), b = conv_cycles(stepped);
    REQUIRE(!a.empty());
    for (const auto& [id, cycles] : a) {
      INFO("conv instruction " << id << ": fast " << cycles << ", stepped " << b.at(id));
      CHECK(relative(cycles, b.at(id)) <= kMaxError);
    }
    const auto report = nlohmann::json::parse(read_text(fast + "/report.json"));
    CHECK(report.at("stats").at("core0.nram").at("bank_requests").get<double>() > 0);
    const auto& layer = report.at("matrix_unit_layers").at(0).at("requests");
    CHECK(layer.at("data_row_read") == (std::string(relay) == "true" ? "relay" : "strided"));
    CHECK((layer.at("relay_hits").get<double>() > 0) == (std::string(relay) == "true"));
  }
}
