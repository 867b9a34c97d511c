#pragma once
#include <string>

#include "apps/frontend/workload/Workload.h"

namespace npusim {

// The text workload formats: npusim's JSON (docs/workload-format.md) and a SCALE-Sim
// layer table (CSV). `path` is only for messages; every problem throws InputError.
Workload parse_workload_json(const std::string& text, const std::string& path);
Workload parse_scale_sim_csv(const std::string& text, const std::string& path);

}  // namespace npusim
