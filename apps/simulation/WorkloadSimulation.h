#pragma once
#include <string>

#include "apps/compiler/planning/SplitPlanner.h"
#include "apps/frontend/workload/Workload.h"
#include "apps/simulation/runner/Simulation.h"

namespace npusim {

// Compiles the workload on the fly and streams it through the simulator: no trace
// file, and memory stays flat in the number of instructions. Adds per-layer rows
// (cycles, MAC utilization, roofline bound, achieved fraction) to report.json under
// "workload" and, when `request.summary` is set, prints the per-layer table after
// the summary. `request.trace_path` names the workload file in the report.
// `workload` is what read_workload gave for `request.trace_path`.
RunStats simulate_workload(SimulationRequest request, const Workload& workload, const SplitOptions& split = {});

}  // namespace npusim
