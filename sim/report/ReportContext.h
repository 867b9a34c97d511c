#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace npusim {

// What the report says about the run besides the measured statistics.
struct ReportContext {
  std::string config_name;     // reduced to its file name in the outputs
  std::string trace_name;      // reduced to its file name: never an absolute path
  std::string mode;            // "timing" or "functional"
  std::string npusim_version;
  // Extra top-level objects for report.json (per-layer rows, matrix-unit stats).
  // Must be a JSON object (or null); its keys may not collide with built-in keys.
  nlohmann::json extra = nlohmann::json::object();
};

// The last component of a user-given path: outputs name inputs by file name only,
// so they carry no absolute paths and do not depend on where the run was started.
std::string file_name_only(const std::string& path);

}  // namespace npusim
