// seed004 §2.5.1 / §2.5.2 on the matrix unit: a conv starts when the input rows
// under its first kernel window are loaded, and a store follows its finished rows.
#include <catch2/catch.hpp>

#include "scheduling/SchedulingRun.h"

namespace {

constexpr std::uint64_t kH = 8, kW = 16, kC = 16, kCo = 16, kK = 3;

// Weights load (WRAM), feature-map load (NRAM), a 3x3 conv without padding, a store.
std::vector<nlohmann::json> conv_layer(const TestMachine& m, const std::string& mode) {
  const std::string g = mode == "staged" ? "rows" : "";
  nlohmann::json conv = {
      {"id", 2},
      {"op", "conv"},
      {"inputs", {tensor("nram", 0, {1, kH, kW, kC}), tensor("wram", 0, {kCo, kK, kK, kC})}},
      {"outputs", {{{"space", "nram"}, {"offset", 8192}, {"shape", {1, kH - 2, kW - 2, kCo}}, {"dtype", "int32"}}}},
      {"params", {{"stride", {1, 1}}, {"padding", {0, 0, 0, 0}}}},
      {"deps", {dependency(0, "full"), dependency(1, mode, g)}}};
  nlohmann::json out = {{"space", "dram"}, {"offset", m.channel_bytes}, {"shape", {1, kH - 2, kW - 2, kCo}},
                        {"dtype", "int32"}};
  nlohmann::json in = conv["outputs"][0];
  return {instruction(0, "load", tensor("dram", 0, {kCo, kK, kK, kC}), tensor("wram", 0, {kCo, kK, kK, kC})),
          instruction(1, "load", tensor("dram", 4096, {1, kH, kW, kC}), tensor("nram", 0, {1, kH, kW, kC})),
          conv,
          {{"id", 3}, {"op", "store"}, {"inputs", {in}}, {"outputs", {out}}, {"deps", {dependency(2, mode, g)}}}};
}

// Row i (one 256-byte segment) of a load that started at `start` is in its scratchpad.
std::uint64_t row_final(const TestMachine& m, std::uint64_t start, std::uint64_t i) {
  return start + (i + 1) * m.row_cycles() + m.dram_latency + 1;
}

}  // namespace

TEST_CASE("scheduling: a staged conv starts once the rows of its first window are loaded", "[scheduling]") {
  TestMachine m;
  const std::uint64_t weight_segments = kCo * kK * kK * kC / m.segment_bytes;
  const std::uint64_t fm_start = row_final(m, 0, weight_segments - 1);  // one load DMA: weights first
  auto full = run_trace("sched-conv-full", m, conv_layer(m, "full"));
  auto staged = run_trace("sched-conv-staged", m, conv_layer(m, "staged"));
  REQUIRE(full.status == 0);
  REQUIRE(staged.status == 0);
  CHECK(full.by_id.at(1).start == fm_start);
  CHECK(full.by_id.at(2).start == row_final(m, fm_start, kH - 1));
  CHECK(staged.by_id.at(2).start == row_final(m, fm_start, kK - 1));
  // The store follows finished output rows, and never ends before the conv.
  CHECK(full.by_id.at(3).start == full.by_id.at(2).end);
  CHECK(staged.by_id.at(3).start < staged.by_id.at(2).end);
  CHECK(staged.by_id.at(3).end > staged.by_id.at(2).end);
  CHECK(staged.total_cycles() < full.total_cycles());
}

TEST_CASE("scheduling: a staged pool waits for the halo rows of its first window", "[scheduling]") {
  TestMachine m;
  const std::vector<std::uint64_t> in_shape = {1, kH, kW, kC};
  nlohmann::json pool = instruction(1, "pool", tensor("nram", 0, in_shape), tensor("nram", 8192, {1, kH - 2, kW - 2, kC}),
                                    {dependency(0, "staged", "rows")});
  pool["params"] = {{"kernel", {kK, kK}}, {"stride", {1, 1}}, {"padding", {0, 0, 0, 0}}, {"mode", "max"}};
  auto run = run_trace("sched-pool", m, {instruction(0, "load", tensor("dram", 0, in_shape), tensor("nram", 0, in_shape)), pool});
  REQUIRE(run.status == 0);
  // Output row 0 needs input rows 0..kK-1: not row 0 alone.
  CHECK(run.by_id.at(1).start == row_final(m, 0, kK - 1));
}
