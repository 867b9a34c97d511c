#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/trace/Instruction.h"
#include "sim/trace/TraceHeader.h"

namespace npusim {

// Trace v1 lines (docs/trace-format.md) for compiled instructions. Input files are
// written relative to `trace_dir` so the trace can move together with its data.
nlohmann::json header_line(const TraceHeader& header, const std::string& trace_dir);
nlohmann::json instruction_line(const Instruction& inst);

// True when `path` is an ordinary file whose first line is an npusim trace header:
// a trace `compile -o` may replace without --overwrite.
bool is_npusim_trace(const std::string& path);

}  // namespace npusim
