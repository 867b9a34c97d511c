#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "apps/regression/RunOutputs.h"

namespace npusim {

// One figure that changed beyond the tolerance between run A and run B.
struct Difference {
  std::string section;  // "total", "engine", "memory", "layer", "instruction", ...
  std::string item;     // engine/memory/layer name, instruction id; "" for totals
  std::string metric;   // field name, dotted for nested objects ("roofline.bound")
  std::string a;        // value in A as text; "-" when A lacks the figure
  std::string b;
  // (b - a) / |a| in percent; nullopt when the change has no ratio (text changed,
  // a figure missing on one side, or a was 0 and b is not).
  std::optional<double> change_pct;
};

struct DiffOptions {
  double tolerance_pct = 0;          // 0 means exact
  std::vector<std::string> metrics;  // compare only these field names; empty = all
};

// The figures of one item of a section (an engine, a memory, a layer, an instruction) or a
// section's own figures (item ""), compared together: one test case of the JUnit output.
struct ComparedGroup {
  std::string section;
  std::string item;
  std::size_t figures = 0;           // compared
  std::size_t first_difference = 0;  // its differences are differences[first, first + count)
  std::size_t differences = 0;
};

struct DiffResult {
  std::size_t compared = 0;  // figures compared
  std::vector<Difference> differences;
  std::vector<ComparedGroup> groups;  // in comparison order; none without a compared figure
};

// Compares report totals, every array-of-objects section of report.json
// (engines, memories, layers, ...) matched by name, and instructions.csv rows
// matched by id. Text fields of the report's top level (version, file names)
// are not compared. An unknown --metric name is an InputError.
DiffResult diff_runs(const RunOutputs& a, const RunOutputs& b, const DiffOptions& options);

}  // namespace npusim
