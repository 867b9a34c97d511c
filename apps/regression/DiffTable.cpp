#include "apps/regression/DiffTable.h"

#include <algorithm>
#include <array>
#include <map>
#include <ostream>

#include <fmt/format.h>

namespace npusim {

namespace {

constexpr std::size_t kColumns = 6;
using Row = std::array<std::string, kColumns>;

std::string change_text(const Difference& d) {
  if (d.change_pct) return fmt::format("{:+.2f}%", *d.change_pct);
  if (d.a == "-") return "added";
  if (d.b == "-") return "removed";
  return "changed";
}

void print_rows(std::ostream& out, const std::vector<Row>& rows) {
  std::array<std::size_t, kColumns> width{};
  for (const auto& r : rows)
    for (std::size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    std::string line = "  ";
    for (std::size_t c = 0; c < kColumns; ++c) {
      // Names left-aligned, values and changes right-aligned, like the run summary.
      line += c < 3 ? fmt::format("{:<{}}", r[c], width[c]) : fmt::format("{:>{}}", r[c], width[c]);
      if (c + 1 < kColumns) line += "  ";
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << "\n";
  }
}

std::string tolerance_text(double tolerance_pct) {
  return tolerance_pct == 0 ? "exact" : fmt::format("tolerance {}%", tolerance_pct);
}

}  // namespace

void print_diff_table(std::ostream& out, const DiffResult& result, double tolerance_pct, std::size_t max_rows) {
  const auto& diffs = result.differences;
  if (diffs.empty()) {
    out << fmt::format("no differences ({}): {} figures compared\n", tolerance_text(tolerance_pct), result.compared);
    return;
  }
  const std::size_t shown = max_rows == 0 ? diffs.size() : std::min(max_rows, diffs.size());
  std::vector<Row> rows{{"section", "item", "metric", "A", "B", "change"}};
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& d = diffs[i];
    rows.push_back({d.section, d.item.empty() ? "-" : d.item, d.metric, d.a, d.b, change_text(d)});
  }
  print_rows(out, rows);
  if (shown < diffs.size())
    out << fmt::format("  ... {} more not shown (--max-rows 0 shows all)\n", diffs.size() - shown);
  std::map<std::string, std::size_t> per_section;
  for (const auto& d : diffs) ++per_section[d.section];
  std::string counts;
  for (const auto& [section, n] : per_section) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", section, n);
  out << fmt::format("{} of {} figures differ ({}): {}\n", diffs.size(), result.compared,
                     tolerance_text(tolerance_pct), counts);
}

}  // namespace npusim
