#include "apps/regression/DiffText.h"

#include <map>

#include <fmt/format.h>

#include "sim/common/ByteSize.h"

namespace npusim {

std::string change_text(const Difference& d) {
  if (d.change_pct) return fmt::format("{:+.2f}%", *d.change_pct);
  if (d.a == "-") return "added";
  if (d.b == "-") return "removed";
  return "changed";
}

std::string tolerance_text(double tolerance_pct) {
  return tolerance_pct == 0 ? "exact" : fmt::format("tolerance {}%", tolerance_pct);
}

std::string verdict_text(const DiffResult& result, double tolerance_pct) {
  const auto& diffs = result.differences;
  if (diffs.empty())
    return fmt::format("no differences ({}): {} figures compared", tolerance_text(tolerance_pct), result.compared);
  std::map<std::string, std::size_t> per_section;
  for (const auto& d : diffs) ++per_section[d.section];
  std::string counts;
  for (const auto& [section, n] : per_section) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", section, n);
  return fmt::format("{} of {} figures differ ({}): {}", diffs.size(), result.compared, tolerance_text(tolerance_pct),
                     counts);
}

std::array<std::string, 2> shown_values(const Difference& d) {
  const auto a = byte_cell_text(d.metric, d.a);
  const auto b = byte_cell_text(d.metric, d.b);
  if ((a || b) && a != b) return {a.value_or(d.a), b.value_or(d.b)};
  return {d.a, d.b};
}

}  // namespace npusim
