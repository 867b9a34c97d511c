#pragma once
#include "sim/common/Cycles.h"
#include "sim/report/RunStats.h"

namespace npusim {

// Numbers derived from RunStats. The JSON report and the console summary both use
// these, so they can never disagree.

// total - busy - stall, clamped at zero.
Cycles idle_cycles(const EngineStats& e, Cycles total);
// busy / total, in [0, 1]; 0 for an empty run.
double engine_utilization(const EngineStats& e, Cycles total);
// (read + written) / (peak bytes per cycle * total); 0 when undefined.
double bandwidth_utilization(const PortStats& p, Cycles total);
// Cycles at clock_mhz to microseconds; 0 when the clock is not set.
double cycles_to_us(Cycles c, double clock_mhz);
// Useful MACs of the run: the sum over engines (the `macs` column of instructions.csv).
std::uint64_t run_macs(const RunStats& stats);

}  // namespace npusim
