// The seed004 claim on one tiled layer: finer release means fewer cycles when
// the layer is bound by the bus, and staged release reaches the compute bound
// when it is bound by compute.
#include <catch2/catch.hpp>

#include <iostream>

#include "scheduling/SchedulingRun.h"

TEST_CASE("scheduling: on a bandwidth-bound layer staged < two_phase < full", "[scheduling]") {
  TestMachine m;  // the relu eats a row four times faster than the DMA brings one
  const std::uint64_t tiles = 4, rows = 8;
  std::map<std::string, std::uint64_t> cycles;
  for (const std::string mode : {"full", "two_phase", "staged"}) {
    auto run = run_trace("sched-bw-" + mode, m, tiled_relu_layer(m, tiles, rows, mode));
    REQUIRE(run.status == 0);
    cycles[mode] = run.total_cycles();
    const auto& deps = run.report.at("scheduling").at("dependencies");
    CHECK(deps.at("total").at("count") == 3 * tiles - 1);
    CHECK(deps.at("by_mode").contains(mode));
  }
  std::cout << "bandwidth-bound layer cycles: full " << cycles["full"] << ", two_phase " << cycles["two_phase"]
            << ", staged " << cycles["staged"] << "\n";
  CHECK(cycles["staged"] < cycles["two_phase"]);
  CHECK(cycles["two_phase"] < cycles["full"]);
  // Two-phase saves exactly the store acknowledgement (a row-time in DRAM plus
  // the DRAM latency) at each of the tiles-1 store -> load hand-overs.
  CHECK(cycles["full"] - cycles["two_phase"] == (tiles - 1) * (m.row_cycles() + m.dram_latency));
}

TEST_CASE("scheduling: the run-wide override gives the same cycles as declaring the mode", "[scheduling]") {
  TestMachine m;
  auto declared = run_trace("sched-declared", m, tiled_relu_layer(m, 2, 8, "staged"));
  auto forced = run_trace("sched-forced", m, tiled_relu_layer(m, 2, 8, "full"), "staged");
  auto back = run_trace("sched-forced-full", m, tiled_relu_layer(m, 2, 8, "staged"), "full");
  auto full = run_trace("sched-declared-full", m, tiled_relu_layer(m, 2, 8, "full"));
  REQUIRE(declared.status == 0);
  REQUIRE(forced.status == 0);
  REQUIRE(back.status == 0);
  REQUIRE(full.status == 0);
  CHECK(forced.total_cycles() == declared.total_cycles());
  CHECK(back.total_cycles() == full.total_cycles());
  CHECK(forced.report.at("scheduling").at("dependencies").at("mode_override") == "staged");

  TestMachine configured = m;  // the same override from the config instead of the flag
  configured.dependency_mode = "staged";
  auto from_config = run_trace("sched-config-staged", configured, tiled_relu_layer(m, 2, 8, "full"));
  REQUIRE(from_config.status == 0);
  CHECK(from_config.total_cycles() == declared.total_cycles());
}

TEST_CASE("scheduling: on a compute-bound layer staged is within 5% of the compute bound", "[scheduling]") {
  TestMachine m;
  m.vector_bytes_per_cycle = 2;  // a row takes 128 cycles on the vector unit, 16 on the DMA
  const std::uint64_t tiles = 4, rows = 32;
  auto run = run_trace("sched-compute", m, tiled_relu_layer(m, tiles, rows, "staged"));
  REQUIRE(run.status == 0);
  const std::uint64_t bound = tiles * rows * m.vector_row_cycles();
  std::cout << "compute-bound layer: staged " << run.total_cycles() << " cycles, compute bound " << bound << "\n";
  CHECK(run.total_cycles() >= bound);
  CHECK(double(run.total_cycles()) <= 1.05 * double(bound));
  const auto& overlap = run.report.at("scheduling").at("overlap");
  CHECK(overlap.at("ratio").get<double>() > 1.0);
}
