#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

// Helpers of the energy tests: npusim runs as a child process, reports read back.
namespace energy_test {

using nlohmann::json;

// `npusim run --quiet` with `args` into `out`; REQUIREs success and returns report.json.
json run_report(const std::vector<std::string>& args, const std::string& out);

// A config in `dir` extending configs/<base> with `patch` laid over it.
std::string write_config(const std::string& dir, const std::string& name, const std::string& base, const json& patch);

// The report row of `name` in an array of named rows (energy.classes, energy.memories ...).
const json& row_named(const json& rows, const std::string& name);

// Relative difference, for sums of doubles added in another order.
double relative(double a, double b);

// A trace: load an int8/float32 map and its 1x1 weights, one conv, store the result.
// With `requantize` (int8 only) the conv has a shift: its result path writes int8.
std::string conv_trace(unsigned h, unsigned w, unsigned ci, unsigned co, const std::string& dtype,
                       bool requantize = false);

}  // namespace energy_test
