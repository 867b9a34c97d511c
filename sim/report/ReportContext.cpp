#include "sim/report/ReportContext.h"

#include <filesystem>

namespace npusim {

std::string file_name_only(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

}  // namespace npusim
