// The control modules (models/controller): dispatch is a resource. On a chip of 16 cores with
// one controller that decodes one instruction per dispatch step, the engines starve and the
// run takes exactly the dispatch time; a controller per core (seed000 IFU/IDU), or a wider
// dispatch, removes the bound; an instruction fetch from the internal buffer slower than decode
// becomes the bound instead. The counters and the timeline show which.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "e2e/NpusimProcess.h"
#include "scheduling/SchedulingRun.h"

using nlohmann::json;

namespace {

constexpr std::uint32_t kCores = 16, kPerCore = 8;  // independent relus on each core
constexpr std::uint64_t kDispatch = 20;             // cycles per dispatch step: far more than a relu

std::vector<json> relus() {
  std::vector<json> lines;
  for (std::uint32_t i = 0; i < kPerCore; ++i)
    for (std::uint32_t c = 0; c < kCores; ++c) {
      json r = instruction(lines.size(), "relu", tensor("nram", 256 * i, {1, 1, 16, 16}),
                           tensor("nram", 8192 + 256 * i, {1, 1, 16, 16}));
      r["core"] = c;
      lines.push_back(r);
    }
  return lines;
}

SchedulingRun run_controller(const std::string& name, const json& controller) {
  json c = {{"extends", source_path("configs/smp-4x4.json")}, {"core", {{"controller", controller}}}};
  return run_trace_on(name, c.dump(), relus());
}

std::uint64_t counter(const SchedulingRun& r, const std::string& group, const std::string& name) {
  return r.report.at("stats").at(group).at(name).get<std::uint64_t>();
}

}  // namespace

TEST_CASE("dispatch: a one-wide chip-wide controller saturates on 16 cores, one per core does not",
          "[controller][dispatch]") {
  const std::uint64_t n = kCores * kPerCore;
  const auto chip = run_controller("dispatch-chip", {{"dispatch_cycles", kDispatch}, {"placement", "chip"},
                                                     {"fetch_bytes_per_cycle", 64}});
  const auto wide = run_controller("dispatch-wide", {{"dispatch_cycles", kDispatch}, {"dispatch_width", 4},
                                                     {"fetch_bytes_per_cycle", 64}});
  const auto cores = run_controller("dispatch-cores", {{"dispatch_cycles", kDispatch}, {"placement", "core"},
                                                       {"fetch_bytes_per_cycle", 64}});
  REQUIRE(chip.status == 0);
  REQUIRE(wide.status == 0);
  REQUIRE(cores.status == 0);
  // One instruction per step: the n-th is dispatched at n steps, then runs briefly.
  CHECK(counter(chip, "controller", "instructions") == n);
  CHECK(counter(chip, "controller", "busy_cycles") == n * kDispatch);
  CHECK(chip.total_cycles() >= n * kDispatch);
  CHECK(chip.total_cycles() < n * kDispatch + kDispatch);
  CHECK(chip.timeline.find("\"dispatch\"") != std::string::npos);
  // Four per step: a quarter of the steps.
  CHECK(counter(wide, "controller", "busy_cycles") == n / 4 * kDispatch);
  CHECK(wide.total_cycles() < n * kDispatch / 3);
  // Each core's own controller: kPerCore steps, in parallel.
  for (std::uint32_t c = 0; c < kCores; ++c) {
    CHECK(counter(cores, fmt::format("core{}.controller", c), "instructions") == kPerCore);
    CHECK(counter(cores, fmt::format("core{}.controller", c), "busy_cycles") == kPerCore * kDispatch);
  }
  CHECK(cores.total_cycles() < chip.total_cycles() / 8);
}

TEST_CASE("dispatch: an instruction fetch slower than decode bounds the controller", "[controller][dispatch]") {
  const std::uint64_t n = kCores * kPerCore;
  // 64-byte instruction words at 2 bytes per cycle: 32 cycles each, against 1 to decode.
  const auto slow = run_controller("dispatch-fetch", {{"dispatch_cycles", 1}, {"instruction_bytes", 64},
                                                      {"fetch_bytes_per_cycle", 2}});
  REQUIRE(slow.status == 0);
  CHECK(slow.total_cycles() >= n * 32);
  CHECK(counter(slow, "controller", "busy_cycles") >= n * 32 - 32);
}

TEST_CASE("dispatch: the default chip-wide one-wide controller adds no counters", "[controller][dispatch]") {
  const auto plain = run_controller("dispatch-default", {{"dispatch_cycles", 1}});
  REQUIRE(plain.status == 0);
  CHECK_FALSE(plain.report.at("stats").contains("controller"));
}
