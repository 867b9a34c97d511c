#pragma once
#include <array>
#include <string>

#include "apps/regression/RunDiff.h"

namespace npusim {

// Text pieces every diff format shares, so the table, Markdown and JUnit say the same.

// "+23.32%", or "added", "removed", "changed" when a change has no ratio.
std::string change_text(const Difference& d);

// "exact" or "tolerance 2%".
std::string tolerance_text(double tolerance_pct);

// "144 of 338 figures differ (exact): engine 7, memory 10" or
// "no differences (exact): 338 figures compared".
std::string verdict_text(const DiffResult& result, double tolerance_pct);

// A and B as a table shows them: byte counts in binary units (sim/common/ByteSize.h), unless
// both would read the same, which would hide the change; other figures as they are.
std::array<std::string, 2> shown_values(const Difference& d);

}  // namespace npusim
