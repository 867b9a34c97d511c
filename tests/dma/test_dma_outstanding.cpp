// A DMA with several instructions in flight (max_outstanding): what overlaps is
// one transfer's DRAM latency with the next one's issue, never the issue slot
// itself, and never across a declared dependency. Expected cycles are derived
// from the TestMachine figures, as in tests/scheduling.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

#include "e2e/NpusimProcess.h"
#include "scheduling/SchedulingRun.h"
#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::uint64_t kRows = 8;  // rows (= segments) of each test tensor

std::vector<std::uint64_t> rows_shape(const TestMachine& m, std::uint64_t rows) {
  return {1, rows, m.segment_bytes / 16, 16};
}

// A load of `rows` rows from DRAM byte `from` into NRAM byte `to`.
json load(const TestMachine& m, std::uint64_t id, std::uint64_t from, std::uint64_t to, std::uint64_t rows,
          std::vector<json> deps = {}) {
  return instruction(id, "load", tensor("dram", from, rows_shape(m, rows)), tensor("nram", to, rows_shape(m, rows)),
                     std::move(deps));
}

// A load of `rows` rows issued from cycle `issue`: the last segment leaves the
// issue slot `rows` row-times later, streams from DRAM at the DMA's rate, pays
// the DRAM latency and one NRAM port cycle.
std::uint64_t load_end(const TestMachine& m, std::uint64_t issue, std::uint64_t rows) {
  return issue + rows * m.row_cycles() + m.dram_latency + 1;
}

const json& engine_row(const SchedulingRun& run, const std::string& name) {
  for (const auto& e : run.report.at("engines"))
    if (e.at("name") == name) return e;
  FAIL("no engine " << name);
  throw std::logic_error("unreachable");
}

std::string bytes_of(const fs::path& path) { return read_text(path.string()); }

}  // namespace

TEST_CASE("dma: two independent loads overlap latency, not bandwidth", "[dma]") {
  TestMachine m;
  const std::uint64_t tensor_bytes = kRows * m.segment_bytes;
  // On different DRAM channels, so only the DMA's own issue slot is shared.
  const std::vector<json> two = {load(m, 0, 0, 0, kRows), load(m, 1, m.channel_bytes, tensor_bytes, kRows)};
  auto serial = run_trace("dma-serial", m, two);
  m.max_outstanding = 2;
  auto overlapped = run_trace("dma-overlapped", m, two);
  REQUIRE(serial.status == 0);
  REQUIRE(overlapped.status == 0);

  // One at a time: the second starts when the first has landed.
  const std::uint64_t first_end = load_end(m, 0, kRows);
  CHECK(serial.by_id.at(0).end == first_end);
  CHECK(serial.by_id.at(1).start == first_end);
  CHECK(serial.by_id.at(1).end == load_end(m, first_end, kRows));

  // Two in flight: the second starts at once, but its segments follow the
  // first's through the one issue slot, so only the first's latency is hidden.
  CHECK(overlapped.by_id.at(0).end == first_end);
  CHECK(overlapped.by_id.at(1).start == 0);
  const std::uint64_t second_end = load_end(m, 0, 2 * kRows);
  CHECK(overlapped.by_id.at(1).end == second_end);
  CHECK(overlapped.total_cycles() < serial.total_cycles());
  const std::uint64_t bandwidth_bound = 2 * tensor_bytes / m.dma_bytes_per_cycle;
  CHECK(overlapped.total_cycles() >= bandwidth_bound);

  // The engine is busy while any instruction is in flight (the union of the
  // rows, not their sum), and the overlapping row has its own timeline track.
  const json& load_engine = engine_row(overlapped, "core0.load");
  CHECK(load_engine.at("busy_cycles") == second_end);
  CHECK(load_engine.at("stall_cycles") == 0);
  CHECK(engine_row(serial, "core0.load").at("busy_cycles") == serial.by_id.at(1).end);
  CHECK(overlapped.timeline.find("\"core0.load.lane1\"") != std::string::npos);
  CHECK(serial.timeline.find("lane1") == std::string::npos);
}

TEST_CASE("dma: seed004 batch norm with parameter loads in flight together", "[dma][scheduling]") {
  // §2.5.4: Lw0..Lwn need not wait for each other; Ld0..Ldm all wait for Lwn.
  TestMachine m;
  const std::uint64_t n = 4;
  m.max_outstanding = n;
  const std::vector<std::uint64_t> param_shape = {2, m.segment_bytes};  // two segments each
  std::vector<json> lines;
  for (std::uint64_t i = 0; i < n; ++i)
    lines.push_back(instruction(i, "load", tensor("dram", i * 2 * m.segment_bytes, param_shape),
                                tensor("wram", i * 2 * m.segment_bytes, param_shape)));
  for (std::uint64_t j = 0; j < n; ++j)
    lines.push_back(load(m, n + j, (2 * n + j) * m.segment_bytes, j * m.segment_bytes, 1, {dependency(n - 1, "full")}));
  auto run = run_trace("dma-bn", m, lines);
  REQUIRE(run.status == 0);
  // Every Lw starts at once; their segments go out back to back.
  for (std::uint64_t i = 0; i < n; ++i) {
    CHECK(run.by_id.at(i).start == 0);
    CHECK(run.by_id.at(i).end == load_end(m, 0, 2 * (i + 1)));
  }
  // Every Ld starts when Lwn has landed, and they too go out back to back.
  const std::uint64_t lwn_end = run.by_id.at(n - 1).end;
  for (std::uint64_t j = 0; j < n; ++j) {
    CHECK(run.by_id.at(n + j).start == lwn_end);
    CHECK(run.by_id.at(n + j).end == load_end(m, lwn_end, j + 1));
  }
  // Ld0 reached the head when Lw0 retired and freed a slot; from there it waited on Lwn.
  const json& load_engine = engine_row(run, "core0.load");
  CHECK(load_engine.at("busy_cycles") == run.by_id.at(2 * n - 1).end);
  CHECK(load_engine.at("stall_cycles") == 0);  // some instruction was in flight throughout
}

TEST_CASE("dma: a load of what a store writes waits for it even with a free slot", "[dma][scheduling]") {
  TestMachine m;
  m.max_outstanding = 2;
  const std::uint64_t long_rows = 3 * kRows;
  const std::uint64_t stored_at = m.channel_bytes;  // DRAM channel 1
  const std::vector<json> lines = {
      load(m, 0, 0, 0, long_rows),  // independent, and long
      instruction(1, "store", tensor("nram", 65536, rows_shape(m, kRows)), tensor("dram", stored_at, rows_shape(m, kRows))),
      load(m, 2, stored_at, 131072, kRows, {dependency(1, "full")}),
      load(m, 3, long_rows * m.segment_bytes, 196608, kRows),  // independent, after it in program order
  };
  for (const std::string mode : {"full", "two_phase", "staged"}) {
    INFO(mode);
    auto run = run_trace("dma-store-load-" + mode, m, lines, mode);
    REQUIRE(run.status == 0);  // the hazard checker found no read of unwritten bytes
    // The store's segments leave NRAM a port cycle after issue and are
    // acknowledged a row-time and the DRAM latency later.
    const std::uint64_t store_end = (kRows - 1) * m.row_cycles() + 1 + m.row_cycles() + m.dram_latency;
    CHECK(run.by_id.at(1).end == store_end);
    // The load reads the stored bytes, so it waits for their acknowledgement
    // (staged: of the first row) although a slot was free while load 0 ran on.
    const std::uint64_t first_row_acked = 1 + m.row_cycles() + m.dram_latency;
    CHECK(run.by_id.at(2).start == (mode == "staged" ? first_row_acked : store_end));
    CHECK(run.by_id.at(2).start < run.by_id.at(0).end);
    // Load 3 does not overtake it: loads start in program order.
    CHECK(run.by_id.at(3).start >= run.by_id.at(2).start);
  }
}

TEST_CASE("dma: tensors of a functional run are the same with one or several instructions in flight",
          "[dma][e2e]") {
  for (const std::string config : {"default", "numa-2x2"}) {
    INFO(config);
    const std::string dir = scratch_dir("dma-functional-" + config);
    write_text(dir + "/serial.json", json{{"extends", source_path("configs/" + config + ".json")},
                                          {"core",
                                           {{"load_dma", {{"max_outstanding", 1}}},
                                            {"store_dma", {{"max_outstanding", 1}}}}}}
                                         .dump());
    write_text(dir + "/overlapped.json", json{{"extends", source_path("configs/" + config + ".json")},
                                              {"core",
                                               {{"load_dma", {{"max_outstanding", 4}}},
                                                {"store_dma", {{"max_outstanding", 4}}}}}}
                                             .dump());
    for (const std::string run : {"serial", "overlapped"}) {
      auto r = run_npusim({"run", "--quiet", "--functional", "--config", dir + "/" + run + ".json", "--workload",
                           source_path("traces/workloads/tiny.json"), "--out", dir + "/" + run});
      INFO(r.output);
      REQUIRE(r.status == 0);
    }
    const auto cycles = [&](const std::string& run) {
      return json::parse(read_text(dir + "/" + run + "/report.json")).at("total_cycles").get<std::uint64_t>();
    };
    CHECK(cycles("overlapped") < cycles("serial"));  // the runs really differ in timing
    std::size_t tensors = 0;
    for (const auto& entry : fs::directory_iterator(dir + "/serial/tensors")) {
      INFO(entry.path().filename());
      CHECK(bytes_of(entry.path()) == bytes_of(fs::path(dir) / "overlapped/tensors" / entry.path().filename()));
      ++tensors;
    }
    CHECK(tensors > 0);
  }
}

TEST_CASE("dma: overlapping runs are deterministic", "[dma][e2e]") {
  const std::string dir = scratch_dir("dma-determinism");
  for (const std::string run : {"a", "b"}) {
    auto r = run_npusim({"run", "--quiet", "--config", source_path("configs/numa-2x2.json"), "--workload",
                         source_path("traces/workloads/tiny.json"), "--out", dir + "/" + run});
    REQUIRE(r.status == 0);
  }
  for (const std::string file : {"report.json", "instructions.csv", "timeline.json"}) {
    INFO(file);
    CHECK(read_text(dir + "/a/" + file) == read_text(dir + "/b/" + file));
  }
  CHECK(read_text(dir + "/a/timeline.json").find(".lane1\"") != std::string::npos);  // overlap did happen
}

TEST_CASE("dma: with overlap, timeline events never overlap on a track and engine time adds up", "[dma][e2e]") {
  const std::string dir = scratch_dir("dma-accounting");
  auto r = run_npusim({"run", "--quiet", "--config", source_path("configs/numa-2x2.json"), "--workload",
                       source_path("traces/workloads/tiny.json"), "--out", dir + "/run"});
  REQUIRE(r.status == 0);
  const json timeline = json::parse(read_text(dir + "/run/timeline.json"));
  std::map<std::uint64_t, std::vector<std::pair<double, double>>> spans;  // tid -> (ts, end)
  for (const auto& e : timeline.at("traceEvents"))
    if (e.at("ph") == "X") {
      const double ts = e.at("ts").get<double>();
      spans[e.at("tid").get<std::uint64_t>()].emplace_back(ts, ts + e.at("dur").get<double>());
    }
  for (auto& [tid, list] : spans) {
    INFO("tid " << tid);
    std::sort(list.begin(), list.end());
    for (std::size_t i = 1; i < list.size(); ++i) CHECK(list[i].first >= list[i - 1].second - 1e-9);
  }
  const json report = json::parse(read_text(dir + "/run/report.json"));
  const auto total = report.at("total_cycles").get<std::uint64_t>();
  for (const auto& e : report.at("engines")) {
    INFO(e.at("name"));
    CHECK(e.at("busy_cycles").get<std::uint64_t>() + e.at("stall_cycles").get<std::uint64_t>() +
              e.at("idle_cycles").get<std::uint64_t>() == total);
  }
}

TEST_CASE("dma: more instructions in flight than queue slots is refused, naming the key", "[dma][config]") {
  const json doc = {{"core", {{"store_dma", {{"queue_depth", 2}, {"max_outstanding", 3}}}}}};
  try {
    npusim::parse_hardware_config(doc, "chip.json");
    FAIL("config accepted");
  } catch (const npusim::InputError& e) {
    CHECK(e.location() == "/core/store_dma/max_outstanding");
    CHECK_THAT(e.reason(), Catch::Matchers::Contains("queue_depth (2)"));
  }
}
