// seed004 §2.5.1's start rule under the two load orders it names, on hand-computed cases:
// compute starts once the data of one complete compute unit is in. Weight-stationary loads
// the weights, then the feature map row by row: a conv starts on the kernel rows under its
// first window. Feature-map-stationary loads the feature map, then the kernels: a conv
// starts on its first round's kernels when a compute unit is a round of the slaves
// (--compute-unit round, the conv's weight dependency staged by channels), on all of them
// when it is the conv instruction. The compiler side: --load-order fs emits exactly that.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "e2e/NpusimProcess.h"
#include "models/matrix_unit/MatrixUnitConfig.h"
#include "models/matrix_unit/WfoldMapping.h"
#include "scheduling/SchedulingRun.h"
#include "sim/config/ConfigLoader.h"

namespace {

constexpr std::uint64_t kH = 8, kW = 16, kC = 16, kCo = 64, kK = 3;
constexpr std::uint64_t kFmBytes = kH * kW * kC, kWeightBytes = kCo * kK * kK * kC;

// Row i (one 256-byte segment) of a load that started at `start` is in its scratchpad.
std::uint64_t row_final(const TestMachine& m, std::uint64_t start, std::uint64_t i) {
  return start + (i + 1) * m.row_cycles() + m.dram_latency + 1;
}

nlohmann::json conv(std::uint64_t id, std::vector<nlohmann::json> deps) {
  return {{"id", id},
          {"op", "conv"},
          {"inputs", {tensor("nram", 0, {1, kH, kW, kC}), tensor("wram", 0, {kCo, kK, kK, kC})}},
          {"outputs", {{{"space", "nram"}, {"offset", 8192}, {"shape", {1, kH - 2, kW - 2, kCo}}, {"dtype", "int32"}}}},
          {"params", {{"stride", {1, 1}}, {"padding", {0, 0, 0, 0}}}},
          {"deps", nlohmann::json(deps)}};
}

nlohmann::json load_weights(std::uint64_t id) {
  return instruction(id, "load", tensor("dram", 0, {kCo, kK, kK, kC}), tensor("wram", 0, {kCo, kK, kK, kC}));
}
nlohmann::json load_map(std::uint64_t id) {
  return instruction(id, "load", tensor("dram", 16384, {1, kH, kW, kC}), tensor("nram", 0, {1, kH, kW, kC}));
}

// The slaves' rounds over the output channels of the test conv (the Wfold plan's co blocks).
std::uint64_t rounds(const TestMachine& m) {
  const std::string dir = scratch_dir("start-rule-plan");
  write_text(dir + "/m.json", m.config_json());
  const npusim::HardwareConfig hw = npusim::load_hardware_config(dir + "/m.json");
  npusim::ConvShape s;
  s.hi = kH, s.wi = kW, s.ci = kC, s.co = kCo, s.kh = kK, s.kw = kK;
  const auto& unit = hw.core.block<npusim::MatrixUnitConfig>(npusim::MatrixUnitConfig::kSection);
  return npusim::plan_wfold_conv(unit, s).co_blocks.size();
}

}  // namespace

TEST_CASE("seed004 start rule, weight-stationary: the conv starts on the weights and the rows of its first window",
          "[scheduling][load-order]") {
  TestMachine m;
  const auto run = run_trace("start-ws", m, {load_weights(0), load_map(1), conv(2, {dependency(0, "full"),
                                                                                    dependency(1, "staged", "rows")})});
  REQUIRE(run.status == 0);
  const std::uint64_t map_start = row_final(m, 0, kWeightBytes / m.segment_bytes - 1);
  CHECK(run.by_id.at(1).start == map_start);
  CHECK(run.by_id.at(2).start == row_final(m, map_start, kK - 1));  // 3 of the map's 8 rows
}

TEST_CASE("seed004 start rule, feature-map-stationary: the conv starts on the map and its first round's kernels",
          "[scheduling][load-order]") {
  TestMachine m;
  const std::uint64_t r = rounds(m);
  REQUIRE(r > 1);
  const std::uint64_t weights_start = row_final(m, 0, kFmBytes / m.segment_bytes - 1);
  // A round of whole output channels (kh x kw x ci bytes each), as the load's segments reach them.
  const std::uint64_t per_co = kK * kK * kC, round_bytes = (kCo / r) * per_co;
  const std::uint64_t segments = (round_bytes + m.segment_bytes - 1) / m.segment_bytes;
  const auto unit = run_trace("start-fs-round", m, {load_map(0), load_weights(1), conv(2, {dependency(0, "full"),
                                                                                          dependency(1, "staged", "channels")})});
  const auto instruction = run_trace("start-fs-instruction", m, {load_map(0), load_weights(1),
                                                                 conv(2, {dependency(0, "full"), dependency(1, "full")})});
  REQUIRE(unit.status == 0);
  REQUIRE(instruction.status == 0);
  INFO(r << " rounds of " << kCo / r << " channels: " << segments << " of " << kWeightBytes / m.segment_bytes
         << " weight segments");
  CHECK(unit.by_id.at(1).start == weights_start);
  CHECK(unit.by_id.at(2).start == row_final(m, weights_start, segments - 1));
  CHECK(instruction.by_id.at(2).start == row_final(m, weights_start, kWeightBytes / m.segment_bytes - 1));
  CHECK(unit.by_id.at(2).start < unit.by_id.at(1).end);  // before the kernels are all in
}

// The compiler's feature-map-stationary trace: each band is loaded before the weight blocks
// that stream past it, and with --compute-unit round each conv waits for its block's load
// staged by channels.
TEST_CASE("load orders: fs emits the band before its kernels, and round convs wait by channels",
          "[load-order][compiler]") {
  const std::string dir = scratch_dir("start-fs-compiled");
  write_text(dir + "/m.json", fmt::format(R"({{"extends": "{}", "core": {{"wram": {{"capacity_bytes": 8192}}}}}})",
                                          source_path("configs/default.json")));
  write_text(dir + "/w.json", R"({"name": "w", "input": {"h": 32, "w": 32, "c": 32},
    "layers": [{"name": "conv", "type": "conv", "co": 64, "kh": 3, "kw": 3, "padding": [1, 1, 1, 1]}]})");
  const auto r = run_npusim({"compile", "--quiet", "--config", dir + "/m.json", "--workload", dir + "/w.json",
                             "--load-order", "fs", "--compute-unit", "round", "--out", dir + "/t.jsonl"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::istringstream lines(read_text(dir + "/t.jsonl"));
  std::string line;
  std::getline(lines, line);  // header
  std::map<std::uint64_t, nlohmann::json> by_id;
  std::set<std::vector<std::uint64_t>> bands;  // the map loads each conv reads
  std::size_t convs = 0, by_channels = 0, map_first = 0;
  while (std::getline(lines, line)) {
    const auto inst = nlohmann::json::parse(line);
    by_id[inst.at("id")] = inst;
    if (inst.at("op") != "conv") continue;
    ++convs;
    std::vector<std::uint64_t> map_loads, weight_loads;
    for (const auto& d : inst.at("deps")) {
      const auto& producer = by_id.at(d.at("id").get<std::uint64_t>());
      if (producer.at("op") != "load") continue;
      const bool weights = producer.at("outputs").at(0).at("space") == "wram";
      (weights ? weight_loads : map_loads).push_back(producer.at("id"));
      if (weights) by_channels += d.value("granularity", "") == "channels" && d.at("mode") == "staged";
    }
    REQUIRE(!map_loads.empty());
    REQUIRE(!weight_loads.empty());
    map_first += *std::max_element(map_loads.begin(), map_loads.end()) <
                 *std::min_element(weight_loads.begin(), weight_loads.end());
    bands.insert(map_loads);
  }
  CHECK(convs > bands.size());  // several weight blocks stream past each loaded band
  CHECK(map_first == convs);    // the feature map first, then the kernels
  CHECK(by_channels == convs);  // every conv starts on its first round's kernels
}
