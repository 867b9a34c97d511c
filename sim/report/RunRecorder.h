#pragma once
#include <cstdint>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "sim/common/Cycles.h"
#include "sim/report/OutputDirectory.h"
#include "sim/report/QuotedNames.h"
#include "sim/report/ReportContext.h"
#include "sim/report/RunRows.h"
#include "sim/report/RunStats.h"
#include "sim/report/Summary.h"
#include "sim/report/TimelineWriter.h"

namespace npusim {

// The first line of instructions.csv.
inline constexpr const char* kInstructionsCsvHeader = "id,op,engine,core,dispatch,start,end,stall_cycles,bytes,macs\n";

// Collects what a run produces while it runs and writes report.json,
// instructions.csv and timeline.json into the output directory's staging area.
// Each record goes straight to temporary files, so memory stays flat however many
// instructions the run executes; finish() assembles the final files from them. The
// per-instruction rows follow `rows` (RunRows.h): by default they stop, and their temporary
// files go, once the run passes the limit, so a long run pays for at most that many rows.
class RunRecorder {
 public:
  RunRecorder(const OutputDirectory& out, double clock_mhz, const RowsPolicy& rows = {});
  ~RunRecorder();
  RunRecorder(const RunRecorder&) = delete;
  RunRecorder& operator=(const RunRecorder&) = delete;

  // Called when an instruction completes, in completion order.
  void record(const InstructionRecord& r);
  // A point event on an engine's track (stage flags and the like).
  void add_instant(const std::string& engine, const std::string& name, Cycles at);
  // A busy span of a block inside an engine (BlockSpans), on its own track.
  void add_span(const std::string& track, const std::string& name, Cycles start, Cycles end);
  // Writes the final files and removes the temporary ones; says in ctx.extra["rows"] which
  // rows it left out, if any (the run's summary prints that line). Call once.
  void finish(const RunStats& stats, ReportContext& ctx);
  // The same for a context nobody reads afterwards.
  void finish(const RunStats& stats, const ReportContext& ctx) {
    ReportContext copy = ctx;
    finish(stats, copy);
  }

  std::uint64_t recorded() const { return recorded_; }

 private:
  void write_rows(const InstructionRecord& r);
  void drop_rows() noexcept;
  void remove_temporaries() noexcept;

  const OutputDirectory& out_;
  double clock_mhz_;
  RowsPolicy rows_policy_;
  bool writing_rows_;  // per-instruction rows still go to the temporary files
  std::string csv_temp_;
  std::string rows_temp_;
  std::ofstream csv_;
  std::ofstream rows_;
  TimelineWriter timeline_;
  QuotedNames names_;
  fmt::memory_buffer csv_lines_;  // rows formatted, not yet written
  fmt::memory_buffer json_rows_;
  std::uint64_t recorded_ = 0;
  bool finished_ = false;
};

}  // namespace npusim
