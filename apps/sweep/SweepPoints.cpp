#include "apps/sweep/SweepPoints.h"

#include <cctype>

#include <fmt/format.h>

namespace npusim {

using nlohmann::json;

namespace {

// Keeps directory names portable: anything unusual becomes '_'.
std::string file_safe(const std::string& text) {
  std::string out;
  for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '=' ? c : '_';
  return out;
}

std::string point_name(const SweepSpec& spec, const SweepPoint& p, std::size_t total) {
  const int digits = static_cast<int>(std::max<std::size_t>(3, fmt::format("{}", total - 1).size()));
  std::string name = fmt::format("{:0{}}-", p.index, digits);
  for (std::size_t a = 0; a < spec.axes.size(); ++a)
    name += (a ? "_" : "") + spec.axes[a].name + "=" + value_text(p.values[a]);
  name = file_safe(name);
  constexpr std::size_t kMaxName = 120;  // file systems limit a name to 255 bytes
  return name.size() > kMaxName ? name.substr(0, kMaxName) : name;
}

}  // namespace

std::string value_text(const json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

std::vector<SweepPoint> expand_points(const SweepSpec& spec) {
  std::size_t total = spec.zip ? spec.axes.front().values.size() : 1;
  if (!spec.zip)
    for (const auto& axis : spec.axes) total *= axis.values.size();
  std::vector<SweepPoint> points(total);
  for (std::size_t i = 0; i < total; ++i) {
    SweepPoint& p = points[i];
    p.index = i;
    std::size_t rest = i;
    // Mixed-radix digits of i, last axis fastest.
    p.values.resize(spec.axes.size());
    for (std::size_t a = spec.axes.size(); a-- > 0;) {
      const auto& values = spec.axes[a].values;
      if (spec.zip) {
        p.values[a] = values[i];
      } else {
        p.values[a] = values[rest % values.size()];
        rest /= values.size();
      }
    }
    p.name = point_name(spec, p, total);
  }
  return points;
}

namespace {
// Writes `value` at `pointer`; a "*" step writes into every element of an array.
void set_at(json& doc, const std::string& pointer, const json& value) {
  const auto star = pointer.find("/*");
  if (star == std::string::npos || (star + 2 < pointer.size() && pointer[star + 2] != '/')) {
    doc[json::json_pointer(pointer)] = value;
    return;
  }
  json& list = doc[json::json_pointer(pointer.substr(0, star))];
  if (!list.is_array()) throw json::type_error::create(302, "'*' steps through a list, and " + pointer.substr(0, star) + " is not one", nullptr);
  for (json& element : list) set_at(element, pointer.substr(star + 2), value);
}

json with_axes(const json& base, const SweepSpec& spec, const SweepPoint& point, bool workload) {
  json doc = base;
  for (std::size_t a = 0; a < spec.axes.size(); ++a)
    if (spec.axes[a].in_workload == workload) set_at(doc, spec.axes[a].pointer, point.values[a]);
  return doc;
}
}  // namespace

json point_config(const json& base, const SweepSpec& spec, const SweepPoint& point) {
  return with_axes(base, spec, point, false);
}

json point_workload(const json& base, const SweepSpec& spec, const SweepPoint& point) {
  return with_axes(base, spec, point, true);
}

}  // namespace npusim
