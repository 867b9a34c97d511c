#include "sim/common/JsonInteger.h"

namespace npusim {

std::optional<std::uint64_t> json_integer(const nlohmann::json& v, std::uint64_t min, std::uint64_t max) {
  // Parsed text holds non-negative integers as unsigned; a document built in code
  // may hold them signed. Fractions, exponents and negatives never qualify.
  if (!v.is_number_integer()) return std::nullopt;
  if (!v.is_number_unsigned() && v.get<std::int64_t>() < 0) return std::nullopt;
  const std::uint64_t n = v.get<std::uint64_t>();
  if (n < min || n > max) return std::nullopt;
  return n;
}

}  // namespace npusim
