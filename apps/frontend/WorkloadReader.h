#pragma once
#include <string>

#include "apps/frontend/json/TextWorkloads.h"
#include "apps/frontend/workload/Workload.h"
#include "apps/frontend/workload/WorkloadOptions.h"

namespace npusim {

// Reads a workload: JSON (docs/workload-format.md), for files ending in .csv a
// SCALE-Sim layer table, or an ONNX model (.onnx, or a file that starts like one).
// Every layer's shapes are resolved and checked; any problem throws InputError naming
// the file, the layer (CSV line, ONNX node) and the reason.
Workload read_workload(const std::string& path, const WorkloadOptions& options = {});

}  // namespace npusim
