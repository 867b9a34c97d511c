#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "sim/config/HardwareConfig.h"
#include "sim/report/ReportContext.h"
#include "sim/report/RunRows.h"
#include "sim/report/RunStats.h"
#include "sim/trace/TraceHeader.h"

namespace npusim {

class InstructionSource;

struct SimulationRequest {
  HardwareConfig hardware;
  std::string config_name;   // shown in reports (file name, never a full path)
  std::string trace_path;
  std::string out_dir;       // final run directory; written atomically
  bool functional = false;
  bool show_progress = false;
  std::ostream* summary = nullptr;  // human table; nullptr = none
  RowsPolicy rows;                  // which per-instruction rows the run folder gets (--rows)

  // A compiler feeding instructions directly instead of a trace file (trace_path is
  // then only the name shown in reports). The header gives its functional bindings.
  InstructionSource* source = nullptr;
  const TraceHeader* source_header = nullptr;
  // The progress bar's measure: `progress_done(n)` of `progress_total` units named
  // `progress_unit` are done once n instructions were dispatched (a workload's layers);
  // total 0 = unknown, the bar then shows the instructions dispatched.
  std::uint64_t progress_total = 0;
  std::string progress_unit;
  std::function<std::uint64_t(std::uint64_t)> progress_done;
  std::function<void(const InstructionRecord&)> on_record;      // extra per-record observer
  std::function<void(const RunStats&, ReportContext&)> annotate;  // adds report extras
  // Groups instructions for the energy account (a workload's layers); empty = one group.
  std::function<std::size_t(const Instruction&)> energy_group;
  // A compiler's: the layer that emitted instruction `id`, named in hazard messages
  // instead of a trace line (Scoreboard::layer_of).
  std::function<std::string(std::uint64_t id)> layer_of;
};

// Builds the chip from the config, streams the trace through it and writes the
// run directory. One call per process: SystemC cannot elaborate twice.
RunStats simulate_trace(const SimulationRequest& request);

}  // namespace npusim
