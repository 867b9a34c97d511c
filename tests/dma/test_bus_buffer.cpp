// seed004 §2.5.3's bus buffer (/core/store_dma/bus_buffer_bytes): a store's segment holds room
// from its issue until its DRAM write lands, waits for room, and a following load that shares
// no bytes with the store (a hardware dependency, two-phase) starts once the store's last data
// is in the buffer. Expected cycles come from the TestMachine figures, as in tests/scheduling.
#include <catch2/catch.hpp>

#include "scheduling/SchedulingRun.h"

using nlohmann::json;

namespace {

constexpr std::uint64_t kRows = 8;  // rows (= 256-byte segments) of the store and the load

std::vector<std::uint64_t> shape(const TestMachine& m) { return {1, kRows, m.segment_bytes / 16, 16}; }

// A store of NRAM [0, 2 KiB) into DRAM channel 0, then a load of channel 1 into NRAM that
// waits for the store two-phase (the bus: they share no bytes).
std::vector<json> store_then_load(const TestMachine& m) {
  return {instruction(0, "store", tensor("nram", 0, shape(m)), tensor("dram", 0, shape(m))),
          instruction(1, "load", tensor("dram", m.channel_bytes, shape(m)), tensor("nram", 8192, shape(m)),
                      {dependency(0, "two_phase")})};
}

SchedulingRun run_with_buffer(const std::string& name, const TestMachine& m, std::uint64_t bytes) {
  json config = json::parse(m.config_json());
  config["core"]["store_dma"]["bus_buffer_bytes"] = bytes;
  return run_trace_on(name, config.dump(), store_then_load(m));
}

const json& stats_of(const SchedulingRun& run, const std::string& group) { return run.report.at("stats").at(group); }

}  // namespace

TEST_CASE("bus buffer: SAVE->LOAD release with a buffer that never fills and with a full one", "[dma][bus-buffer]") {
  TestMachine m;
  const auto unbounded = run_with_buffer("bus-buffer-unbounded", m, 0);
  const auto roomy = run_with_buffer("bus-buffer-roomy", m, kRows * m.segment_bytes);
  const auto full = run_with_buffer("bus-buffer-full", m, m.segment_bytes);
  REQUIRE(unbounded.status == 0);
  REQUIRE(roomy.status == 0);
  REQUIRE(full.status == 0);
  // Segments issue a row-time apart; the last leaves NRAM one port cycle after its issue,
  // and that is the store's release: the load starts there, long before the store lands.
  const std::uint64_t last_issue = (kRows - 1) * m.row_cycles();
  CHECK(unbounded.by_id.at(1).start == last_issue + 1);
  CHECK(roomy.by_id.at(1).start == last_issue + 1);
  CHECK(roomy.by_id.at(0).end == unbounded.by_id.at(0).end);
  CHECK(unbounded.by_id.at(1).start < unbounded.by_id.at(0).end);
  CHECK(stats_of(roomy, "core0.store").at("bus_buffer_full_cycles") == 0);
  CHECK(stats_of(roomy, "core0.store").at("bus_buffer_peak_bytes") == kRows * m.segment_bytes);
  // One segment's life in the buffer: from its issue until its write lands.
  const std::uint64_t life = unbounded.by_id.at(0).end - last_issue;
  // A buffer of one segment: each segment issues when the one before it has landed.
  CHECK(full.by_id.at(0).end == kRows * life);
  CHECK(full.by_id.at(1).start == (kRows - 1) * life + 1);
  CHECK(stats_of(full, "core0.store").at("bus_buffer_full_cycles") == (kRows - 1) * (life - m.row_cycles()));
  CHECK(stats_of(full, "core0.store").at("bus_buffer_peak_bytes") == m.segment_bytes);
  CHECK(full.timeline.find("bus buffer full") != std::string::npos);
  CHECK(roomy.timeline.find("bus buffer full") == std::string::npos);
  // Without a buffer the counters are not there (reports of the shipped configs are unchanged).
  CHECK_FALSE(stats_of(unbounded, "core0.store").contains("bus_buffer_full_cycles"));
}
