#include "sim/kernel/Simulation.h"

#include <filesystem>
#include <stdexcept>

#include "models/chip/Chip.h"
#include "models/kernel/ProcessFailure.h"
#include "models/kernel/SimTime.h"
#include "sim/kernel/FunctionalMemory.h"
#include "sim/kernel/ProgressMeter.h"
#include "sim/report/OutputDirectory.h"
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

}  // namespace

RunStats simulate_trace(const SimulationRequest& request) {
  TraceReader reader(request.trace_path, request.hardware);
  OutputDirectory out(request.out_dir);
  RunRecorder recorder(out, request.hardware.chip.clock_mhz);
  TraceSource source(reader);

  Chip chip("chip", request.hardware, request.functional, source,
            [&recorder](const InstructionRecord& r) { recorder.record(r); });
  ProgressMeter progress("simulating", 0, request.show_progress);
  chip.controller().on_dispatch = [&progress](std::uint64_t n) {
    if ((n & 1023) == 0) progress.update(n, now_cycles());
  };
  if (request.functional) preload_inputs(chip, reader.header());

  sc_core::sc_start();
  progress.finish();
  rethrow_process_failure();
  if (chip.scoreboard().in_flight() != 0)
    throw std::logic_error("simulation stopped with instructions still in flight");

  RunStats stats = chip.collect_stats(now_cycles());
  if (request.functional) dump_outputs(chip, reader.header(), out.file("tensors"));

  ReportContext context;
  context.config_name = request.config_name;
  context.trace_name = std::filesystem::path(request.trace_path).filename().string();
  context.mode = request.functional ? "functional" : "timing";
  context.npusim_version = NPUSIM_VERSION;
  recorder.finish(stats, context);
  out.commit();
  if (request.summary) print_summary(*request.summary, stats, context);
  return stats;
}

}  // namespace npusim
