#include "apps/frontend/json/JsonFields.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "sim/common/JsonInteger.h"
#include "sim/common/NearestName.h"
#include "sim/tensor/WindowGeometry.h"

namespace npusim {

void reject_unknown_keys(const Json& obj, const std::vector<std::string>& known, const Place& place) {
  for (const auto& item : obj.items()) {
    if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
    const std::string near = nearest_name(item.key(), known);
    place.fail(item.key(), near.empty() ? "unknown field" : fmt::format("unknown field (did you mean '{}'?)", near));
  }
}

std::uint32_t positive(const Json& obj, const char* key, const Place& place, std::uint32_t fallback) {
  if (!obj.contains(key)) {
    if (fallback == 0) place.fail(key, "is required");
    return fallback;
  }
  return checked_extent(integer(obj.at(key)), key, place);
}

std::optional<std::int64_t> integer(const Json& v) {
  const auto n = json_integer(v, 0, std::numeric_limits<std::int64_t>::max());
  if (!n) return std::nullopt;  // no range of a layer's holds a fraction or a negative number
  return std::int64_t(*n);
}

double fraction(const Json& obj, const char* key, const Place& place) {
  if (!obj.contains(key)) return 0;
  const Json& v = obj.at(key);
  if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1) place.fail(key, "must be a number from 0 to 1");
  return v.get<double>();
}

std::string text(const Json& obj, const char* key, const Place& place, const std::string& fallback) {
  if (!obj.contains(key)) return fallback;
  if (!obj.at(key).is_string()) place.fail(key, "must be a string");
  return obj.at(key).get<std::string>();
}

bool flag(const Json& obj, const char* key, const Place& place) {
  if (!obj.contains(key)) return false;
  if (!obj.at(key).is_boolean()) place.fail(key, "must be true or false");
  return obj.at(key).get<bool>();
}

void check_dtype(const Json& obj, const Place& place) {
  if (text(obj, "dtype", place, "int8") != "int8")
    place.fail("dtype", "only int8 workloads are compiled for now (conv accumulates in int32, then requantizes)");
}

std::string split_field(const Json& obj, const Place& place) {
  const std::string split = text(obj, "split", place, "");
  check_split(split, place);
  return split;
}

// "same" follows TensorFlow's rule: the extra row/column goes at the bottom/right.
std::array<std::uint32_t, 4> read_padding(const Json& obj, const Layer& l, std::uint32_t keh, std::uint32_t kew,
                                          const Place& place) {
  if (!obj.contains("padding")) return {0, 0, 0, 0};
  const Json& v = obj.at("padding");
  auto side = [](const Json& e) { return json_integer_as<std::uint32_t>(e, 0, kMaxExtent); };
  if (const auto p = side(v)) return {*p, *p, *p, *p};
  if (v == "same") {
    const auto th = std::uint32_t(same_padding(l.in.h, keh, l.sh)), tw = std::uint32_t(same_padding(l.in.w, kew, l.sw));
    return {th / 2, th - th / 2, tw / 2, tw - tw / 2};
  }
  if (v.is_array() && v.size() == 4 && std::all_of(v.begin(), v.end(), [&](const Json& e) { return side(e).has_value(); }))
    return {*side(v[0]), *side(v[1]), *side(v[2]), *side(v[3])};
  fail_padding(place);
}

void check_declared(const Json& obj, const char* key, std::uint32_t actual, const Place& place) {
  if (obj.contains(key) && positive(obj, key, place) != actual)
    place.fail(key, fmt::format("is {} but the layer's input tensor has {}", obj.at(key).dump(), actual));
}

}  // namespace npusim
