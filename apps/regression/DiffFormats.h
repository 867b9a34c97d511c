#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>

#include "apps/regression/RunDiff.h"

namespace npusim {

// How `npusim diff` shows its result: an aligned table for a terminal, a Markdown table for
// a CI job summary, or JUnit XML for a CI system's test report.
enum class DiffFormat { table, markdown, junit };

struct DiffShown {
  std::string run_a, run_b;  // directories as given
  double tolerance_pct = 0;
  std::size_t max_rows = 50;  // differences listed in a table (0 = all); JUnit lists all
};

DiffFormat diff_format_named(const std::string& name);  // "table", "markdown" or "junit"

void print_diff(std::ostream& out, DiffFormat format, const DiffResult& result, const DiffShown& shown);

// The runs, the differences (at most max_rows) as an aligned table, then a one-line
// verdict with counts per section.
void print_diff_table(std::ostream& out, const DiffResult& result, const DiffShown& shown);

// A heading with the verdict, the runs, and the differences as a Markdown table.
void print_diff_markdown(std::ostream& out, const DiffResult& result, const DiffShown& shown);

// One <testsuite> per section, one <testcase> per compared group (ComparedGroup), and in it
// one <failure> per figure that moved beyond the tolerance.
void print_diff_junit(std::ostream& out, const DiffResult& result, const DiffShown& shown);

}  // namespace npusim
