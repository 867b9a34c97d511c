#pragma once
#include <iosfwd>

#include "sim/report/ReportContext.h"
#include "sim/report/RunStats.h"

namespace npusim {

// The human-readable table printed at the end of a run: totals, one row per
// engine, one row per memory or bus port.
void print_summary(std::ostream& os, const RunStats& stats, const ReportContext& ctx);

}  // namespace npusim
