// The shader core's phases and its bad-input rules (seed003 §2.3, ¶[0046]-[0048]):
// nothing reaches memory while the control registers are set, a fetch before they
// are set or past the image is bad input (exit 2, nothing left behind), and no
// multiply starts before the fetch of the tile it reads has finished.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

const char* kHeader = R"({"format":"npusim-trace","version":1})";

std::string set(const char* reg, std::uint64_t value, int id) {
  return fmt::format(R"({{"id":{},"op":"ml_set","params":{{"register":"{}","value":{}}}}})", id, reg, value);
}

// The seed example's registers (5x5x3 image, two 3x3 filters), ids 0-10.
std::string example_registers() {
  const std::vector<std::pair<const char*, std::uint64_t>> regs = {
      {"ifm_x", 5}, {"ifm_y", 5}, {"ifm_components", 3}, {"ifm_stride", 1}, {"ifm_depth_bits", 8}, {"filters", 2},
      {"filter_x", 3}, {"filter_y", 3}, {"out_base", 256}, {"ifm_base", 0}, {"weight_base", 128}};
  std::string lines;
  for (std::size_t i = 0; i < regs.size(); ++i) lines += set(regs[i].first, regs[i].second, int(i)) + "\n";
  return lines;
}

std::string fetch_image(int id, std::uint64_t first, std::uint64_t count, std::uint64_t rows) {
  return fmt::format(R"({{"id":{},"op":"fetch_ml","inputs":[{{"space":"dram","offset":0,"shape":[{},5,3],"dtype":"int8"}}],)"
                     R"("outputs":[{{"space":"rf","offset":64,"shape":[{},5,3],"dtype":"int8"}}],)"
                     R"("params":{{"data":"ifm","image":0,"positions":[{},{}]}}}})",
                     id, rows, rows, first, count);
}

struct Outcome {
  NpusimResult result;
  std::string out;
};

Outcome run_trace(const std::string& name, const std::string& body) {
  const std::string dir = scratch_dir(name);
  write_text(dir + "/t.jsonl", std::string(kHeader) + "\n" + body);
  Outcome o;
  o.out = dir + "/run";
  o.result = run_npusim({"run", "--quiet", "--trace", dir + "/t.jsonl", "--config",
                         source_path("configs/gpu-shader.json"), "--out", o.out});
  return o;
}

}  // namespace

TEST_CASE("shader core: setting the control registers sends no request to memory", "[shader][e2e]") {
  Outcome o = run_trace("shader-init-only", example_registers());
  INFO(o.result.output);
  REQUIRE(o.result.status == 0);
  const auto report = nlohmann::json::parse(read_text(o.out + "/report.json"));
  for (const auto& channel : report["dram_channels"]) {
    CHECK(channel["bytes_read"] == 0);
    CHECK(channel["bytes_written"] == 0);
  }
  CHECK(report["stats"]["core0.fetch_ml"]["requests"] == 0);
  CHECK(report["stats"]["core0.fetch_ml"]["register_writes"] == 11);
  // The last write completes the registers: the timeline shows the state machine initialized.
  CHECK_THAT(read_text(o.out + "/timeline.json"), Contains("\"state\":\"initialized\""));
}

TEST_CASE("shader core: a fetch before the control registers are set is bad input", "[shader][e2e]") {
  Outcome o = run_trace("shader-fetch-early", set("ifm_x", 5, 0) + "\n" + fetch_image(1, 0, 9, 5) + "\n");
  CHECK(o.result.status == 2);
  CHECK_THAT(o.result.output, Contains("fetch_ml before the state machine is initialized") &&
                                  Contains("ifm_y") && Contains("weight_base") && Contains("line 3"));
  CHECK_FALSE(fs::exists(o.out));
}

TEST_CASE("shader core: a fetch past the end of the image is bad input", "[shader][e2e]") {
  Outcome o = run_trace("shader-fetch-past", example_registers() + fetch_image(11, 6, 4, 5) + "\n");
  CHECK(o.result.status == 2);
  CHECK_THAT(o.result.output, Contains("past the end of the 3x3 output"));
  CHECK_FALSE(fs::exists(o.out));
}

TEST_CASE("shader core: a fetch that does not read the rows its positions need is bad input", "[shader][e2e]") {
  // Positions 0-2 (output row 0) read image rows 0-2, not the whole image.
  Outcome o = run_trace("shader-fetch-rows", example_registers() + fetch_image(11, 0, 3, 5) + "\n");
  CHECK(o.result.status == 2);
  CHECK_THAT(o.result.output, Contains("the address generator walks offset 0 shape [3, 5, 3]"));
}

TEST_CASE("shader core: bad ml_set instructions are named by line and field", "[shader][e2e]") {
  const std::string dir = scratch_dir("shader-bad-set");
  const std::map<std::string, std::string> cases = {
      {set("ifm_z", 5, 0), "unknown control register 'ifm_z'"},
      {set("ifm_depth_bits", 16, 0), "ifm_depth_bits must be 8 or 32"},
      {set("filter_x", 0, 0), "filter_x must be an integer from 1"},
      {R"({"id":0,"op":"ml_set","params":{"register":"ifm_x"}})", "params.value"},
  };
  for (const auto& [line, message] : cases) {
    write_text(dir + "/t.jsonl", std::string(kHeader) + "\n" + line + "\n");
    auto r = run_npusim({"validate", dir + "/t.jsonl", "--config", source_path("configs/gpu-shader.json")});
    INFO(line);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("line 2") && Contains(message));
  }
}

TEST_CASE("shader core: configs that cannot work are refused, naming the key", "[shader][config]") {
  const std::string dir = scratch_dir("shader-bad-config");
  const std::string base = source_path("configs/gpu-shader.json");
  const std::map<std::string, std::string> cases = {
      {R"("core": {"engines": ["load", "store", "vector", "shader"]})", "/core/engines"},
      {R"("core": {"register_file": {"capacity_bytes": 0}})", "/core/register_file/capacity_bytes"},
      {R"("core": {"shader": {"register_groups": 3}})", "/core/shader/register_groups"},
      {R"("core": {"shader": {"unroll_site": "somewhere"}})", "/core/shader/unroll_site"},
  };
  for (const auto& [override_text, key] : cases) {
    write_text(dir + "/c.json", "{\"extends\": \"" + base + "\", " + override_text + "}");
    auto r = run_npusim({"validate", dir + "/c.json"});
    INFO(override_text << "\n" << r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains(key));
  }
}

TEST_CASE("shader core: a register group too small for one tile is bad input", "[shader][compiler][e2e]") {
  const std::string dir = scratch_dir("shader-small-rf");
  write_text(dir + "/c.json", "{\"extends\": \"" + source_path("configs/gpu-shader.json") +
                                  "\", \"core\": {\"register_file\": {\"capacity_bytes\": 1024}}}");
  auto r = run_npusim({"run", "--quiet", "--workload", source_path("traces/workloads/tiny.json"), "--config",
                       dir + "/c.json", "--out", dir + "/run"});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("register group of 512 bytes is too small for one tile") &&
                           Contains("/core/register_file/capacity_bytes"));
  CHECK_FALSE(fs::exists(dir + "/run"));
}

TEST_CASE("shader core: no multiply starts before the fetch of its tile has finished", "[shader][compiler][e2e]") {
  const std::string dir = scratch_dir("shader-load-sync");
  auto r = run_npusim({"run", "--quiet", "--workload", source_path("traces/workloads/tiny.json"), "--config",
                       source_path("configs/gpu-shader.json"), "--out", dir + "/run"});
  REQUIRE(r.status == 0);
  std::ifstream csv(dir + "/run/instructions.csv");
  std::string line;
  std::getline(csv, line);  // id,op,engine,core,dispatch,start,end,...
  // Rows come in completion order; walk them in program (id) order, where each
  // ml_matmul directly follows the fetch_ml of its image tile.
  std::map<std::uint64_t, std::vector<std::string>> by_id;
  while (std::getline(csv, line)) {
    std::stringstream row(line);
    std::vector<std::string> f;
    for (std::string cell; std::getline(row, cell, ',');) f.push_back(cell);
    by_id[std::stoull(f[0])] = f;
  }
  std::map<std::uint32_t, std::uint64_t> last_fetch_end;  // per core: its newest fetch_ml in program order
  std::size_t matmuls = 0;
  for (const auto& [id, f] : by_id) {
    const std::uint32_t core = std::uint32_t(std::stoul(f[3]));
    const std::uint64_t start = std::stoull(f[5]), end = std::stoull(f[6]);
    if (f[1] == "fetch_ml") last_fetch_end[core] = end;
    if (f[1] == "ml_matmul") {
      INFO("ml_matmul " << id);
      CHECK(start >= last_fetch_end[core]);
      ++matmuls;
    }
  }
  CHECK(matmuls > 4);
}
