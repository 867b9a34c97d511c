// Which rows a run folder gets (`npusim run --rows`, sim/report/RunRows.h): every value, the
// default instruction limit, and the report's "rows" field, against the records written.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "ReportFixture.h"
#include "sim/report/OutputDirectory.h"
#include "sim/report/RunRecorder.h"
#include "sim/report/RunRows.h"

using namespace npusim;
using namespace npusim::test;
using nlohmann::json;

namespace {

// The sample records through a recorder with `policy`; returns the context it finished with.
ReportContext write_run(const fs::path& dir, const RowsPolicy& policy) {
  OutputDirectory out(dir.string());
  RunRecorder recorder(out, kClockMhz, policy);
  for (const auto& r : sample_records()) recorder.record(r);
  ReportContext ctx = sample_context();
  recorder.finish(sample_stats(), ctx);
  out.commit();
  return ctx;
}

RowsPolicy asked(RowDetail d) {
  RowsPolicy p;
  p.asked = d;
  return p;
}

// Only the run's own files (and its marker) remain: no temporary row files.
std::size_t files_in(const fs::path& dir) {
  return std::size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("rows: --rows all writes every instruction and says nothing of rows", "[report][rows]") {
  ScratchDir scratch("rows-all");
  const ReportContext ctx = write_run(scratch.path / "run", asked(RowDetail::all));
  const json report = json::parse(slurp(scratch.path / "run" / "report.json"));
  CHECK(report.at("instruction_rows").size() == sample_records().size());
  CHECK(lines_of(slurp(scratch.path / "run" / "instructions.csv")).size() == sample_records().size() + 1);
  CHECK_FALSE(report.contains("rows"));
  CHECK_FALSE(ctx.extra.contains("rows"));
}

TEST_CASE("rows: --rows layers and none leave out instructions.csv and instruction_rows", "[report][rows]") {
  for (RowDetail d : {RowDetail::layers, RowDetail::none}) {
    INFO(row_detail_name(d));
    ScratchDir scratch(std::string("rows-") + row_detail_name(d));
    const ReportContext ctx = write_run(scratch.path / "run", asked(d));
    const json report = json::parse(slurp(scratch.path / "run" / "report.json"));
    CHECK(report.at("instruction_rows").empty());
    CHECK(report.at("instructions") == sample_records().size());  // the count stays
    CHECK_FALSE(fs::exists(scratch.path / "run" / "instructions.csv"));
    CHECK(files_in(scratch.path / "run") == 3);  // report.json, timeline.json, the marker
    CHECK(report.at("rows").at("written") == row_detail_name(d));
    CHECK(report.at("rows").at("asked") == row_detail_name(d));
    CHECK(report.at("rows") == ctx.extra.at("rows"));
    CHECK(json::parse(slurp(scratch.path / "run" / "timeline.json")).at("traceEvents").size() > 1);
  }
}

TEST_CASE("rows: by default a run over the instruction limit keeps per-layer rows only", "[report][rows]") {
  const std::size_t n = sample_records().size();
  RowsPolicy by_size;
  by_size.limit = n - 1;
  ScratchDir scratch("rows-over");
  const ReportContext ctx = write_run(scratch.path / "over", by_size);
  const json report = json::parse(slurp(scratch.path / "over" / "report.json"));
  CHECK(report.at("instruction_rows").empty());
  CHECK_FALSE(fs::exists(scratch.path / "over" / "instructions.csv"));
  CHECK(files_in(scratch.path / "over") == 3);
  const json& rows = report.at("rows");
  CHECK(rows.at("written") == "layers");
  CHECK(rows.at("asked") == "default");
  CHECK(rows.at("instruction_limit") == n - 1);
  CHECK(rows.at("reason").get<std::string>().find(std::to_string(n) + " instructions") != std::string::npos);
  CHECK(rows_summary_line(ctx.extra.at("rows")).find("no instructions.csv") != std::string::npos);

  by_size.limit = n;  // exactly at the limit: every row, as --rows all writes them
  write_run(scratch.path / "at", by_size);
  write_run(scratch.path / "all", asked(RowDetail::all));
  for (const char* file : {"report.json", "instructions.csv", "timeline.json"})
    CHECK(slurp(scratch.path / "at" / file) == slurp(scratch.path / "all" / file));
}

TEST_CASE("rows: the default limit is 200,000 instructions", "[report][rows]") {
  const RowsPolicy policy;
  CHECK(policy.limit == 200000);
  CHECK_FALSE(policy.asked);
  CHECK(policy.keeps_instructions(200000));
  CHECK_FALSE(policy.keeps_instructions(200001));
  CHECK(policy.per_layer());
  CHECK(rows_report(policy, 200000).empty());
  CHECK(rows_report(policy, 200001).at("written") == "layers");
  CHECK(rows_summary_line(rows_report(policy, 200000)).empty());
  CHECK_FALSE(asked(RowDetail::none).per_layer());
  CHECK(asked(RowDetail::all).keeps_instructions(5000000));
}

TEST_CASE("rows: the names parse back and nothing else does", "[report][rows]") {
  for (RowDetail d : {RowDetail::none, RowDetail::layers, RowDetail::all}) CHECK(parse_row_detail(row_detail_name(d)) == d);
  CHECK_THROWS_AS(parse_row_detail("some"), std::invalid_argument);
}
