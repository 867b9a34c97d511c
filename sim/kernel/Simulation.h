#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>

#include "sim/config/HardwareConfig.h"
#include "sim/report/RunStats.h"

namespace npusim {

struct SimulationRequest {
  HardwareConfig hardware;
  std::string config_name;   // shown in reports (file name, never a full path)
  std::string trace_path;
  std::string out_dir;       // final run directory; written atomically
  bool functional = false;
  bool show_progress = false;
  std::ostream* summary = nullptr;  // human table; nullptr = none
};

// Builds the chip from the config, streams the trace through it and writes the
// run directory. One call per process: SystemC cannot elaborate twice.
RunStats simulate_trace(const SimulationRequest& request);

}  // namespace npusim
