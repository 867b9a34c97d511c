#pragma once
#include <cstddef>
#include <iosfwd>

#include "apps/regression/RunDiff.h"

namespace npusim {

// Prints the differences as an aligned table (at most `max_rows` of them, 0 = all)
// followed by a one-line verdict with counts per section.
void print_diff_table(std::ostream& out, const DiffResult& result, double tolerance_pct, std::size_t max_rows);

}  // namespace npusim
