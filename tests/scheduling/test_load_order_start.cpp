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
constexpr std::uint64_t kFmBytes = kH * kW * kC;
// The feature-map-stationary conv needs several rounds of the slaves: a round is co_block
// output channels (/core/matrix/co_block, 64 by default), so it has more than kCo.
constexpr std::uint64_t kFsCo = 4 * kCo;

std::uint64_t weight_bytes(std::uint64_t co) { return co * kK * kK * kC; }
std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Segment i of a `total`-byte load that started at `start` is in its scratchpad. The DMA
// cuts the load into segments (longer ones past max_segments) that leave one after
// another; each lands after the DRAM latency and its write through the scratchpad port.
std::uint64_t segment_final(const TestMachine& m, std::uint64_t start, std::uint64_t total, std::uint64_t i) {
  const std::uint64_t segment = m.dma_segment_bytes(total), bytes = std::min(segment, total - i * segment);
  return start + i * ceil_div(segment, m.dma_bytes_per_cycle) + ceil_div(bytes, m.dma_bytes_per_cycle) +
         m.dram_latency + ceil_div(bytes, m.port_bytes_per_cycle);
}
// The segments of a `total`-byte load, and the one that holds byte `bytes - 1` (0-based).
std::uint64_t segments(const TestMachine& m, std::uint64_t total) { return ceil_div(total, m.dma_segment_bytes(total)); }
std::uint64_t segment_of(const TestMachine& m, std::uint64_t total, std::uint64_t bytes) {
  return (bytes - 1) / m.dma_segment_bytes(total);
}

nlohmann::json conv(std::uint64_t id, std::vector<nlohmann::json> deps, std::uint64_t co = kCo) {
  return {{"id", id},
          {"op", "conv"},
          {"inputs", {tensor("nram", 0, {1, kH, kW, kC}), tensor("wram", 0, {co, kK, kK, kC})}},
          {"outputs", {{{"space", "nram"}, {"offset", 8192}, {"shape", {1, kH - 2, kW - 2, co}}, {"dtype", "int32"}}}},
          {"params", {{"stride", {1, 1}}, {"padding", {0, 0, 0, 0}}}},
          {"deps", nlohmann::json(deps)}};
}

nlohmann::json load_weights(std::uint64_t id, std::uint64_t co = kCo) {
  return instruction(id, "load", tensor("dram", 0, {co, kK, kK, kC}), tensor("wram", 0, {co, kK, kK, kC}));
}
nlohmann::json load_map(std::uint64_t id) {
  return instruction(id, "load", tensor("dram", 65536, {1, kH, kW, kC}), tensor("nram", 0, {1, kH, kW, kC}));
}

// The slaves' rounds over the output channels of a test conv (the Wfold plan's co blocks).
std::vector<npusim::CoBlock> rounds(const TestMachine& m, std::uint64_t co) {
  const std::string dir = scratch_dir("start-rule-plan");
  write_text(dir + "/m.json", m.config_json());
  const npusim::HardwareConfig hw = npusim::load_hardware_config(dir + "/m.json");
  npusim::ConvShape s;
  s.hi = kH, s.wi = kW, s.ci = kC, s.co = std::uint32_t(co), s.kh = kK, s.kw = kK;
  const auto& unit = hw.core.block<npusim::MatrixUnitConfig>(npusim::MatrixUnitConfig::kSection);
  return npusim::plan_wfold_conv(unit, s).co_blocks;
}

}  // namespace

TEST_CASE("seed004 start rule, weight-stationary: the conv starts on the weights and the rows of its first window",
          "[scheduling][load-order]") {
  TestMachine m;
  const auto run = run_trace("start-ws", m, {load_weights(0), load_map(1), conv(2, {dependency(0, "full"),
                                                                                    dependency(1, "staged", "rows")})});
  REQUIRE(run.status == 0);
  const std::uint64_t weights = weight_bytes(kCo);
  const std::uint64_t map_start = segment_final(m, 0, weights, segments(m, weights) - 1);
  CHECK(run.by_id.at(1).start == map_start);
  // 3 of the map's 8 rows (one row is one segment)
  CHECK(run.by_id.at(2).start == segment_final(m, map_start, kFmBytes, segment_of(m, kFmBytes, kK * kW * kC)));
}

TEST_CASE("seed004 start rule, feature-map-stationary: the conv starts on the map and its first round's kernels",
          "[scheduling][load-order]") {
  TestMachine m;
  const auto blocks = rounds(m, kFsCo);
  REQUIRE(blocks.size() > 1);
  const std::uint64_t weights = weight_bytes(kFsCo);
  const std::uint64_t weights_start = segment_final(m, 0, kFmBytes, segments(m, kFmBytes) - 1);
  // The first round's whole output channels (kh x kw x ci bytes each), as the load's segments reach them.
  const std::uint64_t round_bytes = weight_bytes(blocks.front().count);
  const auto unit = run_trace("start-fs-round", m, {load_map(0), load_weights(1, kFsCo),
                                                    conv(2, {dependency(0, "full"), dependency(1, "staged", "channels")},
                                                         kFsCo)});
  const auto instruction = run_trace("start-fs-instruction", m, {load_map(0), load_weights(1, kFsCo),
                                                                 conv(2, {dependency(0, "full"), dependency(1, "full")},
                                                                      kFsCo)});
  REQUIRE(unit.status == 0);
  REQUIRE(instruction.status == 0);
  INFO(blocks.size() << " rounds, the first of " << blocks.front().count << " channels: "
                     << segment_of(m, weights, round_bytes) + 1 << " of " << segments(m, weights)
                     << " weight segments");
  CHECK(unit.by_id.at(1).start == weights_start);
  CHECK(unit.by_id.at(2).start == segment_final(m, weights_start, weights, segment_of(m, weights, round_bytes)));
  CHECK(instruction.by_id.at(2).start == segment_final(m, weights_start, weights, segments(m, weights) - 1));
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
      // A bare id is a full dependency (docs/trace-format.md): the compiler writes its buffer
      // reuse waits (a conv on the store that frees its output buffer) that way.
      const bool bare = d.is_number();
      const auto& producer = by_id.at(bare ? d.get<std::uint64_t>() : d.at("id").get<std::uint64_t>());
      if (producer.at("op") != "load") continue;
      const bool weights = producer.at("outputs").at(0).at("space") == "wram";
      (weights ? weight_loads : map_loads).push_back(producer.at("id"));
      if (weights && !bare) by_channels += d.value("granularity", "") == "channels" && d.at("mode") == "staged";
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
