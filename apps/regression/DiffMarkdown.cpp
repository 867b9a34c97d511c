#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include "apps/regression/DiffFormats.h"
#include "apps/regression/DiffText.h"

namespace npusim {

namespace {

// A table cell: a '|' would end the cell and a line break the row.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

// A path as code, so '_' and '*' in it are not read as emphasis.
std::string code(const std::string& text) {
  return text.find('`') == std::string::npos ? "`" + cell(text) + "`" : cell(text);
}

void print_row(std::ostream& out, const Difference& d) {
  const auto [a, b] = shown_values(d);
  out << fmt::format("| {} | {} | {} | {} | {} | {} |\n", cell(d.section), cell(d.item.empty() ? "-" : d.item),
                     cell(d.metric), cell(a), cell(b), cell(change_text(d)));
}

}  // namespace

void print_diff_markdown(std::ostream& out, const DiffResult& result, const DiffShown& shown) {
  out << "### npusim diff: " << cell(verdict_text(result, shown.tolerance_pct)) << "\n\n";
  out << "- A: " << code(shown.run_a) << "\n- B: " << code(shown.run_b) << "\n";
  const auto& diffs = result.differences;
  if (diffs.empty()) return;
  const std::size_t listed = shown.max_rows == 0 ? diffs.size() : std::min(shown.max_rows, diffs.size());
  out << "\n| section | item | metric | A | B | change |\n|---|---|---|--:|--:|--:|\n";
  for (std::size_t i = 0; i < listed; ++i) print_row(out, diffs[i]);
  if (listed < diffs.size())
    out << fmt::format("\n{} more not shown (--max-rows 0 shows all)\n", diffs.size() - listed);
}

}  // namespace npusim
