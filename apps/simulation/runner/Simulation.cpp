#include "apps/simulation/runner/Simulation.h"

#include <filesystem>
#include <optional>
#include <stdexcept>

#include "models/chip/Chip.h"
#include "models/kernel/ProcessFailure.h"
#include "models/kernel/SimTime.h"
#include "sim/common/InputError.h"
#include "apps/simulation/runner/FunctionalMemory.h"
#include "apps/simulation/runner/ProgressMeter.h"
#include "sim/report/OutputDirectory.h"
#include "sim/report/RunMetrics.h"
#include "sim/report/RunRecorder.h"
#include "sim/trace/TraceReader.h"

namespace npusim {

namespace {

class TraceSource : public InstructionSource {
 public:
  explicit TraceSource(TraceReader& reader) : reader_(reader) {}
  bool next(Instruction& out) override { return reader_.next(out); }

 private:
  TraceReader& reader_;
};

// The instructions to run: the request's own source (a compiler's), or its trace file read here.
class RunInstructions {
 public:
  explicit RunInstructions(const SimulationRequest& request) : request_(request) {
    if (request.source) return;
    reader_.emplace(request.trace_path, request.hardware);
    file_source_.emplace(*reader_);
  }
  InstructionSource& source() { return request_.source ? *request_.source : *file_source_; }
  const TraceHeader& header() const { return request_.source ? *request_.source_header : reader_->header(); }

 private:
  const SimulationRequest& request_;
  std::optional<TraceReader> reader_;
  std::optional<TraceSource> file_source_;
};

// The run's events go to the recorder and the progress bar; the request sets the dependency
// mode and names the layers in hazard messages.
void connect_chip(Chip& chip, RunRecorder& recorder, ProgressMeter& progress, const SimulationRequest& request) {
  chip.controller().on_dispatch = [&progress, &request](std::uint64_t n) {
    if ((n & 1023) != 0) return;
    progress.update(request.progress_done ? request.progress_done(n) : n, n, now_cycles());
  };
  chip.scoreboard().scheduling().set_override(request.hardware.core.controller.dependency_mode);
  chip.scoreboard().layer_of = request.layer_of;
  chip.scoreboard().on_flag = [&recorder](const std::string& engine, const std::string& name, Cycles at) {
    recorder.add_instant(engine, name, at);
  };
  chip.block_spans().connect([&recorder](const std::string& track, const std::string& name, Cycles start, Cycles end) {
    recorder.add_span(track, name, start, end);
  });
}

// The first error a SystemC process raised, or a run that stopped with work left, ends it here.
void check_run_complete(Chip& chip, const std::string& trace_path) {
  try {
    rethrow_process_failure();
  } catch (const InputError& e) {
    // The dependency hazard checker knows the line, not the trace file.
    if (!e.file().empty()) throw;
    throw InputError(trace_path, e.location(), e.reason());
  }
  if (chip.scoreboard().in_flight() != 0)
    throw std::logic_error("simulation stopped with instructions still in flight");
}

// What the report says besides the counters: names, mode, the blocks' own sections, energy and area.
ReportContext report_context(const SimulationRequest& request, Chip& chip, const RunStats& stats) {
  ReportContext context;
  context.config_name = request.config_name;
  context.trace_name = std::filesystem::path(request.trace_path).filename().string();
  context.mode = request.functional ? "functional" : "timing";
  context.npusim_version = NPUSIM_VERSION;
  context.extra.update(chip.report_sections());
  context.extra["scheduling"] = chip.scoreboard().scheduling().to_json(stats);
  if (stats.energy.priced) {
    context.extra["energy"] = energy_json(stats.energy, run_macs(stats));
    context.extra["area"] = area_json(stats.energy);
  }
  return context;
}

}  // namespace

RunStats simulate_trace(const SimulationRequest& request) {
  RunInstructions instructions(request);
  OutputDirectory out(request.out_dir);
  RunRecorder recorder(out, request.hardware.chip.clock_mhz, request.rows);
  Chip chip(
      "chip", request.hardware, request.functional, instructions.source(),
      [&recorder, &request](const InstructionRecord& r) {
        recorder.record(r);
        if (request.on_record) request.on_record(r);
      },
      request.energy_group);
  ProgressMeter progress("simulating", request.progress_total, request.progress_unit, request.show_progress);
  connect_chip(chip, recorder, progress, request);
  if (request.functional) preload_inputs(chip, instructions.header(), request.trace_path);

  sc_core::sc_start();
  progress.finish();
  check_run_complete(chip, request.trace_path);
  RunStats stats = chip.collect_stats(now_cycles());
  stats.energy = chip.energy(stats.total_cycles);
  if (request.functional) dump_outputs(chip, instructions.header(), out.file("tensors"));
  ReportContext context = report_context(request, chip, stats);
  if (request.annotate) request.annotate(stats, context);
  recorder.finish(stats, context);
  out.commit();
  if (request.summary) print_summary(*request.summary, stats, context);
  return stats;
}

}  // namespace npusim
