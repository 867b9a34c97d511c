#include "sim/common/ByteSize.h"

#include <charconv>
#include <iterator>

#include <fmt/format.h>

namespace npusim {

std::string byte_size_text(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = double(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  return value == double(std::uint64_t(value)) ? fmt::format("{} {}", std::uint64_t(value), units[unit])
                                               : fmt::format("{:.1f} {}", value, units[unit]);
}

bool is_byte_valued(const std::string& field) {
  const auto dot = field.rfind('.');
  const std::string name = dot == std::string::npos ? field : field.substr(dot + 1);
  const std::string suffix = "_bytes";
  const bool ends_in_bytes =
      name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  const bool starts_with_bytes = name.rfind("bytes_", 0) == 0 && name.find("_per_") == std::string::npos;
  return name == "bytes" || ends_in_bytes || starts_with_bytes;
}

std::optional<std::string> byte_cell_text(const std::string& field, const std::string& text) {
  if (!is_byte_valued(field)) return std::nullopt;
  std::uint64_t bytes = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, bytes);
  if (error != std::errc() || stop != end || text.empty()) return std::nullopt;
  return byte_size_text(bytes);
}

}  // namespace npusim
