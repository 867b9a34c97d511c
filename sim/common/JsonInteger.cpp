#include "sim/common/JsonInteger.h"

#include <stdexcept>
#include <string>

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

namespace {
// The op's checks bounded every integer param when the line was read; reading
// through the checked path keeps a model from ever narrowing one silently.
std::uint32_t checked_param(const nlohmann::json& v, const char* key) {
  if (auto n = json_integer_as<std::uint32_t>(v)) return *n;
  throw std::logic_error(std::string("params.") + key + " reached a model unchecked");
}
}  // namespace

std::uint32_t param_element(const nlohmann::json& params, const char* key, std::size_t index,
                            std::uint32_t fallback) {
  if (!params.contains(key)) return fallback;
  return checked_param(params.at(key).at(index), key);
}

std::uint32_t param_value(const nlohmann::json& params, const char* key, std::uint32_t fallback) {
  if (!params.contains(key)) return fallback;
  return checked_param(params.at(key), key);
}

}  // namespace npusim
