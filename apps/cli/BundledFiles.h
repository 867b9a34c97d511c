#pragma once
#include <string>

namespace npusim {

// Finds a file shipped with npusim (configs/default.json, traces/...): first as
// given, relative to the working directory, then inside the source tree the
// binary was built from, so `npusim run` works from any directory.
std::string bundled_file(const std::string& relative_path);

// The file name without directories, for reports (never an absolute path).
std::string display_name(const std::string& path);

}  // namespace npusim
