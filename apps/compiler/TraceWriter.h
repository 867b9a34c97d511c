#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/trace/Instruction.h"
#include "sim/trace/TraceHeader.h"

namespace npusim {

// Trace v1 lines (docs/trace-format.md) for compiled instructions. Input files are
// written relative to `trace_dir` so the trace can move together with its data. The
// header says "compiled_by": kCompiledBy, which marks the file as one `compile` may
// replace.
inline constexpr const char* kCompiledBy = "npusim compile";
nlohmann::json header_line(const TraceHeader& header, const std::string& trace_dir);
nlohmann::json instruction_line(const Instruction& inst);

// Inputs whose data the workload carries (ONNX weights) get a file: each distinct
// tensor is written once as <trace path>.data/<name>.npy (the directory belongs to the
// trace and is created if missing) and the bindings name it.
void save_carried_inputs(TraceHeader& header, const std::string& trace_path);

// True when `path` is an ordinary file whose first line is a header `compile` wrote
// (with its "compiled_by" mark): a trace `compile -o` may replace without --overwrite.
bool is_npusim_trace(const std::string& path);

}  // namespace npusim
