// The hazard checker: a trace whose dependency declaration does not match the
// data the instructions share is rejected as bad input, naming both of them.
#include <catch2/catch.hpp>

#include "scheduling/SchedulingRun.h"

namespace {
// A load writes 8 rows of 256 bytes; the relu reads the same 2 KiB but views it
// as 2 rows of 1 KiB. "rows" then means different granules on the two sides:
// the relu's first row needs the load's first four rows, not one.
std::vector<nlohmann::json> mismatched_rows(const TestMachine& m, const std::string& granularity) {
  const std::vector<std::uint64_t> loaded = {1, 8, m.segment_bytes / 16, 16};
  const std::vector<std::uint64_t> viewed = {1, 2, 4 * m.segment_bytes / 16, 16};
  return {instruction(0, "load", tensor("dram", 0, loaded), tensor("nram", 0, loaded)),
          instruction(1, "relu", tensor("nram", 0, viewed), tensor("nram", 8 * m.segment_bytes, viewed),
                      {dependency(0, "staged", granularity)})};
}
}  // namespace

TEST_CASE("scheduling: a mis-declared staged granularity is caught by the hazard checker", "[scheduling]") {
  TestMachine m;
  auto run = run_trace("sched-hazard-rows", m, mismatched_rows(m, "rows"));
  CHECK(run.status == 2);
  CHECK_THAT(run.output, Catch::Matchers::Contains("dependency hazard"));
  CHECK_THAT(run.output, Catch::Matchers::Contains("instruction 1 (relu"));
  CHECK_THAT(run.output, Catch::Matchers::Contains("instruction 0 (load"));
  CHECK_THAT(run.output, Catch::Matchers::Contains("granularity 'rows'"));
  CHECK_THAT(run.output, Catch::Matchers::Contains("t.jsonl"));
  CHECK(run.output.find("SystemC") == std::string::npos);  // one message, not the kernel's stop note
}

TEST_CASE("scheduling: the same sharing declared with tiles granularity is safe", "[scheduling]") {
  TestMachine m;
  auto run = run_trace("sched-hazard-tiles", m, mismatched_rows(m, "tiles"));
  REQUIRE(run.status == 0);
  // The relu's first 1 KiB chunk is four load segments: it starts when the
  // fourth is in NRAM (issued 3 row-times in, one row-time of DRAM, latency, port).
  CHECK(run.by_id.at(1).start == 4 * m.row_cycles() + m.dram_latency + 1);
}

TEST_CASE("scheduling: a load that overwrites a store's source while it is read is caught", "[scheduling]") {
  TestMachine m;
  m.store_bytes_per_cycle = 1;  // the store reads a row every 256 cycles; the load lands one every 16
  const std::vector<std::uint64_t> shape = {1, 8, m.segment_bytes / 16, 16};
  // The load reuses the store's NRAM buffer and declares no dependency on it.
  std::vector<nlohmann::json> lines = {
      instruction(0, "store", tensor("nram", 0, shape), tensor("dram", m.channel_bytes, shape)),
      instruction(1, "load", tensor("dram", 0, shape), tensor("nram", 0, shape))};
  auto run = run_trace("sched-hazard-war", m, lines);
  CHECK(run.status == 2);
  CHECK_THAT(run.output, Catch::Matchers::Contains("instruction 1 (load"));
  CHECK_THAT(run.output, Catch::Matchers::Contains("overwrites"));
  CHECK_THAT(run.output, Catch::Matchers::Contains("instruction 0 (store"));
  // Waiting for the store's two-phase end flag (its data has left NRAM) is enough.
  lines[1]["deps"] = nlohmann::json::array({dependency(0, "two_phase")});
  auto safe = run_trace("sched-hazard-war-ok", m, lines);
  CHECK(safe.status == 0);
}

namespace {
// The depthwise bug in miniature. Load 0 puts weights in NRAM; relu 2 reads them,
// but waits on the vector unit behind the long relu 1; load 3, later in program
// order and on the idle load DMA, reuses the weights' NRAM while relu 2 still
// needs them. With `reader_dep`, load 3 waits for relu 2 and all is well.
std::vector<nlohmann::json> weights_reused_too_early(const TestMachine& m, bool reader_dep) {
  const std::vector<std::uint64_t> weights = {1, 8, m.segment_bytes / 16, 16};  // 2 KiB at NRAM 0
  const std::vector<std::uint64_t> big = {1, 256, m.segment_bytes / 16, 16};    // 64 KiB elsewhere
  const std::uint64_t big_at = 16 * m.segment_bytes;
  std::vector<nlohmann::json> deps3;
  if (reader_dep) deps3.push_back(dependency(2, "full"));
  return {instruction(0, "load", tensor("dram", 0, weights), tensor("nram", 0, weights)),
          instruction(1, "relu", tensor("nram", big_at, big), tensor("nram", big_at + (1 << 16), big)),
          instruction(2, "relu", tensor("nram", 0, weights), tensor("nram", 8 * m.segment_bytes, weights),
                      {dependency(0, "full")}),
          instruction(3, "load", tensor("dram", 4096, weights), tensor("nram", 0, weights), deps3)};
}
}  // namespace

TEST_CASE("scheduling: a write that clobbers a live value before its reader runs is caught (WAW)", "[scheduling]") {
  TestMachine m;
  auto run = run_trace("sched-hazard-waw", m, weights_reused_too_early(m, false));
  INFO(run.output);
  CHECK(run.status == 2);
  CHECK_THAT(run.output, Catch::Matchers::Contains("write after write on a live value"));
  // Both writers: load 3 clobbered the weights load 0 wrote (finished long before),
  // and the reader whose value was lost.
  CHECK_THAT(run.output, Catch::Matchers::Contains("instruction 3 (load, line 5) overwrote nram bytes from offset 0"));
  CHECK_THAT(run.output, Catch::Matchers::Contains("that instruction 0 (load, line 2) wrote"));
  CHECK_THAT(run.output, Catch::Matchers::Contains("instruction 2 (relu, line 4)"));
  CHECK_THAT(run.output, Catch::Matchers::Contains("it declares no dependency on it"));
  CHECK(std::count(run.output.begin(), run.output.end(), '\n') == 1);
}

TEST_CASE("scheduling: reusing a buffer once its reader is done is not a hazard", "[scheduling]") {
  TestMachine m;
  auto safe = run_trace("sched-hazard-waw-ok", m, weights_reused_too_early(m, true));
  INFO(safe.output);
  REQUIRE(safe.status == 0);
  CHECK(safe.by_id.at(3).start >= safe.by_id.at(2).end);
  // Two writes of the same bytes with no reader between them are dead data, not a hazard.
  const std::vector<std::uint64_t> shape = {1, 8, m.segment_bytes / 16, 16};
  auto overwrite = run_trace("sched-hazard-waw-dead", m,
                             {instruction(0, "load", tensor("dram", 0, shape), tensor("nram", 0, shape)),
                              instruction(1, "load", tensor("dram", 4096, shape), tensor("nram", 0, shape))});
  INFO(overwrite.output);
  CHECK(overwrite.status == 0);
}

TEST_CASE("scheduling: a load overwriting a store's source mid-read names the value's writer too", "[scheduling]") {
  TestMachine m;
  m.store_bytes_per_cycle = 1;  // the store drains NRAM slowly; the next load lands much faster
  const std::vector<std::uint64_t> shape = {1, 8, m.segment_bytes / 16, 16};
  // Load 0 fills the buffer, store 1 writes it out, load 2 refills it without waiting for the store.
  auto run = run_trace("sched-hazard-war-named", m,
                       {instruction(0, "load", tensor("dram", 0, shape), tensor("nram", 0, shape)),
                        instruction(1, "store", tensor("nram", 0, shape), tensor("dram", m.channel_bytes, shape),
                                    {dependency(0, "full")}),
                        instruction(2, "load", tensor("dram", 4096, shape), tensor("nram", 0, shape))});
  INFO(run.output);
  CHECK(run.status == 2);
  CHECK_THAT(run.output, Catch::Matchers::Contains("instruction 2 (load, line 4) overwrites nram bytes"));
  CHECK_THAT(run.output, Catch::Matchers::Contains(
                             "instruction 1 (store, line 3) still reads them (the value instruction 0 (load, line 2) "
                             "wrote)"));
}
