#include "sim/config/EnergyTableRef.h"

#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "SourcePaths.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace fs = std::filesystem;

namespace {
const char* const kKey = "/chip/energy_table";

fs::path shipped_directory() { return fs::path(NPUSIM_SOURCE_DIR) / "configs" / "energy"; }

std::string shipped_names() {
  std::set<std::string> names;  // sorted: directory order is the file system's
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(shipped_directory(), ec))
    if (entry.path().extension() == ".json") names.insert(entry.path().stem().string());
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}
}  // namespace

bool names_energy_table_file(const std::string& value) {
  return value.size() > 5 && value.compare(value.size() - 5, 5, ".json") == 0;
}

void anchor_energy_table(nlohmann::json& doc, const std::string& config_path) {
  const nlohmann::json::json_pointer at(kKey);
  if (!doc.contains(at) || !doc.at(at).is_string()) return;
  const std::string value = doc.at(at).get<std::string>();
  if (!names_energy_table_file(value) || fs::path(value).is_absolute()) return;
  doc[at] = fs::absolute(fs::path(config_path).parent_path() / value).lexically_normal().string();
}

std::string energy_table_path(const std::string& value, const std::string& config_file) {
  if (names_energy_table_file(value)) return value;
  const fs::path shipped = shipped_directory() / (value + ".json");
  std::error_code ec;
  if (value.find('/') != std::string::npos || !fs::is_regular_file(shipped, ec))
    throw InputError(config_file, kKey,
                     fmt::format("'{}' is neither a shipped energy table (shipped: {}) nor a .json file", value,
                                 shipped_names()));
  return shipped.string();
}

}  // namespace npusim
