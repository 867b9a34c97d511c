#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace npusim {

// The one check behind every integer npusim reads from a user's JSON (config,
// trace lines and header, workload): the value must be a JSON integer (no
// fraction or exponent) within [min, max]. nlohmann's get<uint32_t>() would
// silently wrap 4294967301 to 5; reading through here never narrows.
// Nothing when `v` is not such an integer; each reader words its own message.
std::optional<std::uint64_t> json_integer(const nlohmann::json& v, std::uint64_t min = 0,
                                          std::uint64_t max = std::numeric_limits<std::uint64_t>::max());

// The same, into a narrower type: `max` is capped at what T holds.
template <class T>
std::optional<T> json_integer_as(const nlohmann::json& v, std::uint64_t min = 0,
                                 std::uint64_t max = std::numeric_limits<T>::max()) {
  static_assert(std::is_unsigned_v<T>, "user integers are counts, sizes and offsets");
  const auto n = json_integer(v, min, std::min<std::uint64_t>(max, std::numeric_limits<T>::max()));
  if (!n) return std::nullopt;
  return static_cast<T>(*n);
}

// Element `index` of the integer list `key` in an instruction's params (e.g.
// stride[1]), or `fallback` when the key is absent; the reader has checked them.
std::uint32_t param_element(const nlohmann::json& params, const char* key, std::size_t index,
                            std::uint32_t fallback);
// The integer param `key` (e.g. shift), or `fallback` when it is absent.
std::uint32_t param_value(const nlohmann::json& params, const char* key, std::uint32_t fallback);

}  // namespace npusim
