#include <algorithm>
#include <array>
#include <ostream>

#include <fmt/format.h>

#include "apps/regression/DiffFormats.h"
#include "apps/regression/DiffText.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

constexpr std::size_t kColumns = 6;
using Row = std::array<std::string, kColumns>;

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

}  // namespace

DiffFormat diff_format_named(const std::string& name) {
  if (name == "markdown") return DiffFormat::markdown;
  if (name == "junit") return DiffFormat::junit;
  if (name == "table") return DiffFormat::table;
  throw InputError("--format", name, "expected table, markdown or junit");
}

void print_diff(std::ostream& out, DiffFormat format, const DiffResult& result, const DiffShown& shown) {
  switch (format) {
    case DiffFormat::table: return print_diff_table(out, result, shown);
    case DiffFormat::markdown: return print_diff_markdown(out, result, shown);
    case DiffFormat::junit: return print_diff_junit(out, result, shown);
  }
}

void print_diff_table(std::ostream& out, const DiffResult& result, const DiffShown& shown) {
  out << "A: " << shown.run_a << "\nB: " << shown.run_b << "\n";
  const auto& diffs = result.differences;
  if (diffs.empty()) {
    out << verdict_text(result, shown.tolerance_pct) << "\n";
    return;
  }
  const std::size_t listed = shown.max_rows == 0 ? diffs.size() : std::min(shown.max_rows, diffs.size());
  std::vector<Row> rows{{"section", "item", "metric", "A", "B", "change"}};
  for (std::size_t i = 0; i < listed; ++i) {
    const auto& d = diffs[i];
    const auto [a, b] = shown_values(d);
    rows.push_back({d.section, d.item.empty() ? "-" : d.item, d.metric, a, b, change_text(d)});
  }
  print_rows(out, rows);
  if (listed < diffs.size())
    out << fmt::format("  ... {} more not shown (--max-rows 0 shows all)\n", diffs.size() - listed);
  out << verdict_text(result, shown.tolerance_pct) << "\n";
}

}  // namespace npusim
