#include <catch2/catch.hpp>

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "ReportFixture.h"
#include "sim/report/OutputOwnership.h"
#include "sim/report/OutputDirectory.h"
#include "sim/report/RunRecorder.h"

using namespace npusim;
using namespace npusim::test;
using nlohmann::json;

namespace {

// One complete run into `final_dir`, with an instant on a track no engine owns.
void write_sample_run(const fs::path& final_dir, const ReportContext& ctx = sample_context()) {
  OutputDirectory out(final_dir.string());
  RunRecorder recorder(out, kClockMhz);
  for (const auto& r : sample_records()) recorder.record(r);
  recorder.add_instant("controller", "stage 1 done", 25);
  recorder.add_instant("core0.load", "flag", 40);
  recorder.finish(sample_stats(), ctx);
  out.commit();
}

json parse_file(const fs::path& p) { return json::parse(slurp(p)); }

}  // namespace

TEST_CASE("two runs with the same inputs write byte-identical files", "[report]") {
  ScratchDir scratch("determinism");
  write_sample_run(scratch.path / "a");
  write_sample_run(scratch.path / "b" / "deeper");
  for (const char* name : {"report.json", "instructions.csv", "timeline.json"}) {
    INFO(name);
    const std::string a = slurp(scratch.path / "a" / name);
    CHECK_FALSE(a.empty());
    CHECK(a == slurp(scratch.path / "b" / "deeper" / name));
    CHECK(a.find("/home/someone") == std::string::npos);  // no absolute paths leak
    CHECK(a.find(scratch.path.string()) == std::string::npos);
  }
  // Only the three outputs and the ownership marker remain: temporaries are gone.
  CHECK(std::distance(fs::directory_iterator(scratch.path / "a"), fs::directory_iterator()) == 4);
  CHECK(fs::is_regular_file(scratch.path / "a" / marker_name(OutputKind::Run)));
}

TEST_CASE("report.json totals, idle cycles and utilizations", "[report]") {
  ScratchDir scratch("report");
  write_sample_run(scratch.path / "run");
  const json report = parse_file(scratch.path / "run" / "report.json");
  const RunStats stats = sample_stats();
  const auto records = sample_records();
  const double total = static_cast<double>(stats.total_cycles);

  CHECK(report["schema_version"] == 1);
  CHECK(report["npusim_version"] == "9.9.9");
  CHECK(report["config"] == "small.json");
  CHECK(report["trace"] == "conv.trace.json");
  CHECK(report["mode"] == "timing");
  CHECK(report["clock_mhz"].get<double>() == Approx(kClockMhz));
  CHECK(report["total_cycles"] == stats.total_cycles);
  CHECK(report["time_us"].get<double>() == Approx(total / kClockMhz));
  CHECK(report["instructions"] == records.size());

  REQUIRE(report["engines"].size() == stats.engines.size());
  for (std::size_t i = 0; i < stats.engines.size(); ++i) {
    const EngineStats& e = stats.engines[i];
    const json& row = report["engines"][i];
    INFO(e.name);
    CHECK(row["name"] == e.name);
    CHECK(row["kind"] == e.kind);
    CHECK(row["busy_cycles"] == e.busy);
    CHECK(row["stall_cycles"] == e.stall);
    const double idle = std::max(0.0, total - double(e.busy) - double(e.stall));
    CHECK(row["idle_cycles"].get<double>() == idle);
    CHECK(row["utilization"].get<double>() == Approx(double(e.busy) / total));
  }
  CHECK(report["engines"][1]["idle_cycles"] == 0);  // 700 busy + 400 stall > 1000 total

  REQUIRE(report["memories"].size() == stats.ports.size());
  for (std::size_t i = 0; i < stats.ports.size(); ++i) {
    const PortStats& p = stats.ports[i];
    const json& row = report["memories"][i];
    INFO(p.name);
    CHECK(row["bytes_read"] == p.bytes_read);
    CHECK(row["bytes_written"] == p.bytes_written);
    CHECK(row["capacity_bytes"] == p.capacity_bytes);
    CHECK(row["peak_occupancy_bytes"] == p.peak_occupancy_bytes);
    const double peak = p.bytes_per_cycle * total;
    const double expected = peak > 0 ? double(p.bytes_read + p.bytes_written) / peak : 0.0;
    CHECK(row["bandwidth_utilization"].get<double>() == Approx(expected));
  }
  REQUIRE(report["dram_channels"].size() == 1);
  CHECK(report["dram_channels"][0]["name"] == "dram.ch0");

  REQUIRE(report["instruction_rows"].size() == records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    const json& row = report["instruction_rows"][i];
    CHECK(row["id"] == records[i].id);
    CHECK(row["op"] == records[i].op);
    CHECK(row["engine"] == records[i].engine);
    CHECK(row["end"] == records[i].end);
    CHECK(row["stall_cycles"] == records[i].stall);
    CHECK(row["macs"] == records[i].macs);
  }
}

TEST_CASE("report.json merges extra top-level objects and rejects clashes", "[report]") {
  ScratchDir scratch("extra");
  ReportContext ctx = sample_context();
  ctx.extra["layers"] = json::array({{{"name", "conv1"}, {"cycles", 123}}});
  write_sample_run(scratch.path / "run", ctx);
  const json report = parse_file(scratch.path / "run" / "report.json");
  CHECK(report["layers"][0]["name"] == "conv1");
  CHECK(report["instruction_rows"].size() == sample_records().size());

  ctx.extra = {{"total_cycles", 5}};
  CHECK_THROWS_AS(write_sample_run(scratch.path / "clash", ctx), std::invalid_argument);
  CHECK_FALSE(fs::exists(scratch.path / "clash"));
}

TEST_CASE("a run with no instructions still writes valid files", "[report]") {
  ScratchDir scratch("empty");
  {
    OutputDirectory out((scratch.path / "run").string());
    RunRecorder recorder(out, kClockMhz);
    recorder.finish(RunStats{}, sample_context());
    out.commit();
  }
  const json report = parse_file(scratch.path / "run" / "report.json");
  CHECK(report["instruction_rows"].empty());
  CHECK(report["instructions"] == 0);
  CHECK(parse_file(scratch.path / "run" / "timeline.json")["traceEvents"].size() == 1);
  CHECK(lines_of(slurp(scratch.path / "run" / "instructions.csv")).size() == 1);
}

TEST_CASE("instructions.csv has the header and one row per record", "[report]") {
  ScratchDir scratch("csv");
  write_sample_run(scratch.path / "run");
  const auto lines = lines_of(slurp(scratch.path / "run" / "instructions.csv"));
  const auto records = sample_records();
  REQUIRE(lines.size() == records.size() + 1);
  CHECK(lines[0] == "id,op,engine,core,dispatch,start,end,stall_cycles,bytes,macs");
  const InstructionRecord& r = records[1];
  CHECK(lines[2] == fmt::format("{},{},{},{},{},{},{},{},{},{}", r.id, r.op, r.engine, r.core,
                                r.dispatch, r.start, r.end, r.stall, r.bytes, r.macs));
  // The op holding a comma and quotes is one quoted field with doubled quotes.
  CHECK(lines[4].rfind("3,\"odd,\"\"op\"\"\",core0.matrix,", 0) == 0);
}

TEST_CASE("timeline.json is a trace with one track per engine and one X per record",
          "[report]") {
  ScratchDir scratch("timeline");
  write_sample_run(scratch.path / "run");
  const json timeline = parse_file(scratch.path / "run" / "timeline.json");
  CHECK(timeline["displayTimeUnit"] == "ns");
  const auto records = sample_records();

  std::set<std::string> engines = {"controller"};  // the instant-only track
  for (const auto& e : sample_stats().engines) engines.insert(e.name);
  for (const auto& r : records) engines.insert(r.engine);

  std::map<std::string, std::uint64_t> tid_of;
  std::vector<json> complete, instants;
  int process_names = 0;
  for (const json& e : timeline["traceEvents"]) {
    if (e["name"] == "thread_name") tid_of[e["args"]["name"]] = e["tid"];
    if (e["name"] == "process_name") process_names += e["args"]["name"] == "npusim";
    if (e["ph"] == "X") complete.push_back(e);
    if (e["ph"] == "i") instants.push_back(e);
  }
  CHECK(process_names == 1);
  REQUIRE(tid_of.size() == engines.size());
  // Track ids follow the sorted engine names.
  std::uint64_t expected_tid = 1;
  for (const auto& name : engines) CHECK(tid_of.at(name) == expected_tid++);

  REQUIRE(complete.size() == records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    const InstructionRecord& r = records[i];
    CHECK(complete[i]["name"] == r.op);
    CHECK(complete[i]["tid"] == tid_of.at(r.engine));
    CHECK(complete[i]["args"]["id"] == r.id);
    CHECK(complete[i]["args"]["stall"] == r.stall);
    CHECK(complete[i]["ts"].get<double>() == Approx(double(r.start) / kClockMhz));
    CHECK(complete[i]["dur"].get<double>() == Approx(double(r.end - r.start) / kClockMhz));
  }
  REQUIRE(instants.size() == 2);
  CHECK(instants[0]["tid"] == tid_of.at("controller"));
  CHECK(instants[0]["name"] == "stage 1 done");
  CHECK(instants[0]["ts"].get<double>() == Approx(25.0 / kClockMhz));
}

TEST_CASE("an unfinished recorder leaves no files once the directory is dropped", "[report]") {
  ScratchDir scratch("unfinished");
  {
    OutputDirectory out((scratch.path / "run").string());
    RunRecorder recorder(out, kClockMhz);
    for (const auto& r : sample_records()) recorder.record(r);
  }
  CHECK(fs::is_empty(scratch.path));
  OutputDirectory out((scratch.path / "run").string());
  CHECK_THROWS_AS(RunRecorder(out, 0.0), std::invalid_argument);
}

TEST_CASE("timeline tracks sort numbers as numbers, and block spans get their own tracks", "[report]") {
  ScratchDir scratch("timeline-order");
  {
    OutputDirectory out((scratch.path / "run").string());
    RunRecorder recorder(out, kClockMhz);
    for (const char* track : {"core10.sparse.unit2", "core2.sparse.unit10", "core2.sparse.unit9", "core2.load"})
      recorder.add_span(track, "sparse_conv 7", 10, 30);
    recorder.add_span("core2.sparse.unit1", "empty", 5, 5);  // no time: no event
    recorder.finish(sample_stats(), sample_context());
    out.commit();
  }
  const json timeline = parse_file(scratch.path / "run" / "timeline.json");
  std::map<std::string, std::uint64_t> tid_of;
  int spans = 0;
  for (const json& e : timeline["traceEvents"]) {
    if (e["name"] == "thread_name") tid_of[e["args"]["name"]] = e["tid"];
    spans += e["ph"] == "X";
  }
  CHECK(spans == 4);
  CHECK(tid_of.at("core2.load") < tid_of.at("core2.sparse.unit9"));
  CHECK(tid_of.at("core2.sparse.unit9") < tid_of.at("core2.sparse.unit10"));
  CHECK(tid_of.at("core2.sparse.unit10") < tid_of.at("core10.sparse.unit2"));
  CHECK(tid_of.count("core2.sparse.unit1") == 0);
}
