#include "sim/report/RunRecorder.h"

#include <filesystem>
#include <iterator>
#include <stdexcept>
#include <system_error>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/report/BlockWrites.h"
#include "sim/report/ReportJson.h"
#include "sim/common/Interruption.h"

namespace npusim {

namespace {

std::ofstream open_temp(const std::string& path) {
  CreationGuard guard;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) fail_writing(path, "cannot create the file");
  return f;
}

double checked_clock(double clock_mhz) {
  if (!(clock_mhz > 0)) throw std::invalid_argument("RunRecorder needs a positive clock_mhz");
  return clock_mhz;
}

void close_checked(std::ofstream& f, const std::string& path) {
  f.close();
  if (!f) fail_writing(path);
}

}  // namespace

RunRecorder::RunRecorder(const OutputDirectory& out, double clock_mhz, const RowsPolicy& rows)
    : out_(out),
      clock_mhz_(checked_clock(clock_mhz)),
      rows_policy_(rows),
      writing_rows_(rows.keeps_instructions(0)),
      csv_temp_(out.file(".instructions.csv.part")),
      rows_temp_(out.file(".instruction_rows.part")),
      timeline_(out.file(".timeline.part"), clock_mhz) {
  if (!writing_rows_) return;
  csv_ = open_temp(csv_temp_);
  rows_ = open_temp(rows_temp_);
  csv_ << kInstructionsCsvHeader;
}

RunRecorder::~RunRecorder() {
  if (!finished_) remove_temporaries();
}

void RunRecorder::record(const InstructionRecord& r) {
  if (writing_rows_ && !rows_policy_.keeps_instructions(recorded_ + 1)) drop_rows();
  if (writing_rows_) write_rows(r);
  timeline_.add_complete(r);
  ++recorded_;
}

// Rows are formatted with compiled format strings into two buffers, written out in blocks
// (BlockWrites.h).
void RunRecorder::write_rows(const InstructionRecord& r) {
  fmt::format_to(std::back_inserter(csv_lines_), FMT_COMPILE("{},{},{},{},{},{},{},{},{},{}\n"), r.id,
                 names_.csv(r.op), names_.csv(r.engine), r.core, r.dispatch, r.start, r.end,
                 r.stall, r.bytes, r.macs);
  // Each JSON row carries its own leading separator so finish() can copy the file as is.
  fmt::format_to(std::back_inserter(json_rows_),
                 FMT_COMPILE("{}\n    {{\"id\":{},\"op\":{},\"engine\":{},\"core\":{},\"dispatch\":{},"
                             "\"start\":{},\"end\":{},\"stall_cycles\":{},\"bytes\":{},\"macs\":{}}}"),
                 recorded_ == 0 ? "" : ",", r.id, names_.json(r.op), names_.json(r.engine),
                 r.core, r.dispatch, r.start, r.end, r.stall, r.bytes, r.macs);
  write_full_block(csv_, csv_lines_);
  write_full_block(rows_, json_rows_);
}

// Past the limit: the rows written so far go too, so the run keeps none rather than a prefix.
void RunRecorder::drop_rows() noexcept {
  remove_temporaries();
  writing_rows_ = false;
}

void RunRecorder::add_span(const std::string& track, const std::string& name, Cycles start, Cycles end) {
  timeline_.add_span(track, name, start, end);
}

void RunRecorder::add_instant(const std::string& engine, const std::string& name, Cycles at) {
  timeline_.add_instant(engine, name, at);
}

void RunRecorder::finish(const RunStats& stats, ReportContext& ctx) {
  if (finished_) throw std::logic_error("RunRecorder::finish called twice");
  if (writing_rows_) {
    write_block(csv_, csv_lines_);
    write_block(rows_, json_rows_);
    close_checked(csv_, csv_temp_);
    close_checked(rows_, rows_temp_);
  }
  const nlohmann::json left_out = rows_report(rows_policy_, recorded_);
  if (!left_out.empty()) ctx.extra["rows"] = left_out;
  const auto summary = report_summary(stats, ctx, clock_mhz_, recorded_);
  {
    std::ifstream rows;
    if (writing_rows_) rows.open(rows_temp_, std::ios::binary);
    std::ofstream report = open_temp(out_.file("report.json"));
    write_report_json(report, summary, rows, writing_rows_ && recorded_ > 0);
    close_checked(report, out_.file("report.json"));
  }
  timeline_.finish(out_.file("timeline.json"), stats.engines);
  if (writing_rows_) {
    std::filesystem::rename(csv_temp_, out_.file("instructions.csv"));
    std::filesystem::remove(rows_temp_);
  }
  finished_ = true;
}

void RunRecorder::remove_temporaries() noexcept {
  std::error_code ignored;
  csv_lines_.clear();
  json_rows_.clear();
  csv_.close();
  rows_.close();
  std::filesystem::remove(csv_temp_, ignored);
  std::filesystem::remove(rows_temp_, ignored);
}

}  // namespace npusim
