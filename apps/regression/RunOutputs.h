#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "apps/regression/CsvTable.h"

namespace npusim {

// The parts of a run directory that `diff` compares. A golden directory holds
// just these two files.
struct RunOutputs {
  std::string dir;
  nlohmann::ordered_json report;  // report.json, key order kept for stable output
  CsvTable instructions;          // instructions.csv
};

// Reads DIR/report.json and DIR/instructions.csv; a missing directory or file, or
// a malformed one, is an InputError naming it. A run whose report says it left its
// instruction rows out (`run --rows`) has no instructions.csv and reads as no rows.
RunOutputs load_run_outputs(const std::string& dir);

}  // namespace npusim
