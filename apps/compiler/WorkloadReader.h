#pragma once
#include <string>

#include "apps/compiler/Workload.h"

namespace npusim {

// Reads a workload: JSON (docs/workload-format.md) or, for files ending in .csv, a
// SCALE-Sim layer table. Every layer's shapes are resolved and checked; any problem
// throws InputError naming the file, the layer (or CSV line) and the reason.
Workload read_workload(const std::string& path);
Workload parse_workload_json(const std::string& text, const std::string& path);
Workload parse_scale_sim_csv(const std::string& text, const std::string& path);

}  // namespace npusim
