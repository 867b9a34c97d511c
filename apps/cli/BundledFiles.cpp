#include "apps/cli/BundledFiles.h"

#include <filesystem>

#include "SourcePaths.h"

namespace npusim {

std::string bundled_file(const std::string& relative_path) {
  namespace fs = std::filesystem;
  std::error_code ec;  // a name the system cannot even look up is left for the reader to report
  if (fs::exists(relative_path, ec)) return relative_path;
  fs::path in_tree = fs::path(NPUSIM_SOURCE_DIR) / relative_path;
  return fs::exists(in_tree, ec) ? in_tree.string() : relative_path;
}

std::string display_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace npusim
