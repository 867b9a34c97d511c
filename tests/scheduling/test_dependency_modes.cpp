// seed004 dependency modes on hand-built traces. Every expected cycle is derived
// here from the TestMachine parameters, never copied from a run.
#include <catch2/catch.hpp>

#include "scheduling/SchedulingRun.h"

namespace {

constexpr std::uint64_t kRows = 8;

// One load -> relu -> store chain of kRows rows, all dependencies in `mode`.
std::vector<nlohmann::json> chain(const TestMachine& m, const std::string& mode) {
  return tiled_relu_layer(m, 1, kRows, mode);
}

// Cycle at which row i of a load that started at `start` is in NRAM: its
// segment is issued i row-times after the start, streams out of DRAM for one
// row-time, pays the DRAM latency and one cycle on the NRAM port.
std::uint64_t load_row_final(const TestMachine& m, std::uint64_t start, std::uint64_t i) {
  return start + (i + 1) * m.row_cycles() + m.dram_latency + 1;
}

// A relu chunk (one row) that begins at b is final after streaming the row and
// the pipeline latency.
std::uint64_t relu_row_final(const TestMachine& m, std::uint64_t b) { return b + m.vector_row_cycles() + m.vector_latency; }

// A store segment issued at s leaves NRAM after one port cycle, streams into
// DRAM for one row-time and is acknowledged after the DRAM latency.
std::uint64_t store_row_acked(const TestMachine& m, std::uint64_t s) { return s + 1 + m.row_cycles() + m.dram_latency; }

}  // namespace

TEST_CASE("scheduling: full chain starts each instruction when its producer ends", "[scheduling]") {
  TestMachine m;
  auto run = run_trace("sched-full", m, chain(m, "full"));
  REQUIRE(run.status == 0);
  const std::uint64_t load_end = load_row_final(m, 0, kRows - 1);
  const std::uint64_t relu_end = relu_row_final(m, load_end + (kRows - 1) * m.vector_row_cycles());
  const std::uint64_t store_end = store_row_acked(m, relu_end + (kRows - 1) * m.row_cycles());
  CHECK(run.by_id.at(0).start == 0);
  CHECK(run.by_id.at(0).end == load_end);
  CHECK(run.by_id.at(1).start == load_end);
  CHECK(run.by_id.at(1).end == relu_end);
  CHECK(run.by_id.at(2).start == relu_end);
  CHECK(run.by_id.at(2).end == store_end);
}

TEST_CASE("scheduling: staged chain starts on the first finished row and follows row by row", "[scheduling]") {
  TestMachine m;
  auto run = run_trace("sched-staged", m, chain(m, "staged"));
  REQUIRE(run.status == 0);
  // The load delivers a row every row-time, slower than the relu eats one, so
  // relu row i begins when load row i is final, and store row i when relu row i is.
  const std::uint64_t relu_start = load_row_final(m, 0, 0);
  const std::uint64_t relu_last_begin = load_row_final(m, 0, kRows - 1);
  const std::uint64_t store_start = relu_row_final(m, relu_start);
  const std::uint64_t store_last_issue = relu_row_final(m, relu_last_begin);
  CHECK(run.by_id.at(1).start == relu_start);
  CHECK(run.by_id.at(1).end == relu_row_final(m, relu_last_begin));
  CHECK(run.by_id.at(2).start == store_start);
  CHECK(run.by_id.at(2).end == store_row_acked(m, store_last_issue));
  // A consumer never finishes before the producer stage it reads.
  CHECK(run.by_id.at(1).end > run.by_id.at(0).end);
  CHECK(run.by_id.at(2).end > run.by_id.at(1).end);
  CHECK(run.timeline.find("stage 1/8 #0") != std::string::npos);
  // Both consumers were queued at cycle 0, so their waits are their start cycles.
  const auto& sched = run.report.at("scheduling");
  CHECK(sched.at("time_to_first_compute").at("first_cycles") == relu_start);
  CHECK(sched.at("dependencies").at("by_engine_pair").at("load->vector").at("wait_cycles") == relu_start);
  CHECK(sched.at("dependencies").at("by_engine_pair").at("vector->store").at("wait_cycles") == store_start);
  CHECK(sched.at("dependencies").at("total").at("wait_cycles") == relu_start + store_start);
}

TEST_CASE("scheduling: two-phase chain gains nothing when the consumer reads every byte", "[scheduling]") {
  TestMachine m;
  auto full = run_trace("sched-2p-full", m, chain(m, "full"));
  auto two = run_trace("sched-2p", m, chain(m, "two_phase"));
  REQUIRE(two.status == 0);
  REQUIRE(full.status == 0);
  const std::uint64_t load_end = load_row_final(m, 0, kRows - 1);
  CHECK(two.by_id.at(1).start == load_end);
  for (std::uint64_t id = 0; id < 3; ++id) CHECK(two.by_id.at(id).start == full.by_id.at(id).start);
}

namespace {
// A store of kRows rows from NRAM to DRAM channel 1 followed by a load that
// depends on it with `mode`; the load reads channel 0 (no shared bytes) or,
// when `overlapping`, the very bytes the store writes.
std::vector<nlohmann::json> store_then_load(const TestMachine& m, const std::string& mode, bool overlapping) {
  const std::vector<std::uint64_t> shape = {1, kRows, m.segment_bytes / 16, 16};
  const std::uint64_t bytes = kRows * m.segment_bytes;
  return {instruction(0, "store", tensor("nram", 0, shape), tensor("dram", m.channel_bytes, shape)),
          instruction(1, "load", tensor("dram", overlapping ? m.channel_bytes : 0, shape),
                      tensor("nram", bytes, shape), {dependency(0, mode)})};
}
}  // namespace

TEST_CASE("scheduling: a load after a store starts once the store released the bus", "[scheduling]") {
  TestMachine m;
  // Store segment i is issued at i row-times and leaves NRAM one cycle later:
  // that is when the last one is in the bus buffer. Its acknowledgement comes a
  // row-time and the DRAM latency after that.
  const std::uint64_t released = (kRows - 1) * m.row_cycles() + 1;
  const std::uint64_t acked = store_row_acked(m, (kRows - 1) * m.row_cycles());
  auto full = run_trace("sched-sl-full", m, store_then_load(m, "full", false));
  auto two = run_trace("sched-sl-2p", m, store_then_load(m, "two_phase", false));
  REQUIRE(full.status == 0);
  REQUIRE(two.status == 0);
  CHECK(full.by_id.at(0).end == acked);
  CHECK(full.by_id.at(1).start == acked);
  CHECK(two.by_id.at(1).start == released);
  CHECK(two.by_id.at(1).start + m.row_cycles() + m.dram_latency == full.by_id.at(1).start);
  CHECK(two.timeline.find("end flag #0") != std::string::npos);
}

TEST_CASE("scheduling: a load of the bytes a store writes waits for the store's completion", "[scheduling]") {
  TestMachine m;
  auto two = run_trace("sched-sl-overlap", m, store_then_load(m, "two_phase", true));
  REQUIRE(two.status == 0);
  CHECK(two.by_id.at(1).start == store_row_acked(m, (kRows - 1) * m.row_cycles()));
}

TEST_CASE("scheduling: batch norm loads parameters freely and data only after the last parameter", "[scheduling]") {
  TestMachine m;
  const std::uint64_t n = 4;
  const std::vector<std::uint64_t> param_shape = {2, m.segment_bytes};  // two segments each
  const std::vector<std::uint64_t> data_shape = {1, 1, m.segment_bytes / 16, 16};
  std::vector<nlohmann::json> lines;
  for (std::uint64_t i = 0; i < n; ++i)  // Lw0..Lw3: no dependencies between them
    lines.push_back(instruction(i, "load", tensor("dram", i * 2 * m.segment_bytes, param_shape),
                                tensor("wram", i * 2 * m.segment_bytes, param_shape)));
  for (std::uint64_t j = 0; j < n; ++j)  // Ld0..Ld3: each waits only for Lw3
    lines.push_back(instruction(n + j, "load", tensor("dram", (2 * n + j) * m.segment_bytes, data_shape),
                                tensor("nram", j * m.segment_bytes, data_shape), {dependency(n - 1, "full")}));
  auto run = run_trace("sched-bn", m, lines);
  REQUIRE(run.status == 0);
  // One load DMA runs them in order: a parameter load is two segments, the
  // second issued a row-time after the first, then DRAM latency and a port cycle.
  const std::uint64_t lw = 2 * m.row_cycles() + m.dram_latency + 1;
  const std::uint64_t ld = m.row_cycles() + m.dram_latency + 1;
  for (std::uint64_t i = 0; i < n; ++i) CHECK(run.by_id.at(i).start == i * lw);
  for (std::uint64_t j = 0; j < n; ++j) {
    CHECK(run.by_id.at(n + j).start >= run.by_id.at(n - 1).end);
    CHECK(run.by_id.at(n + j).start == n * lw + j * ld);
  }
}
