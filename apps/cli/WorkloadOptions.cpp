#include <cerrno>
#include <cstdlib>
#include <iostream>

#include <CLI/CLI.hpp>

#include "apps/cli/Cli.h"
#include "apps/frontend/onnx/OnnxWorkload.h"
#include "sim/common/InputError.h"

namespace npusim {

void add_input_shape_option(CLI::App& cmd, std::vector<std::string>& shapes) {
  cmd.add_option("--input-shape", shapes,
                 "ONNX models: the shape of a graph input whose dimensions are dynamic, NAME=D1xD2x..., e.g. "
                 "input=1x3x224x224 (repeatable)");
}

WorkloadOptions workload_options(const std::vector<std::string>& shapes, bool functional) {
  WorkloadOptions options;
  options.functional = functional;
  for (const auto& text : shapes) {
    auto [name, dims] = parse_input_shape(text);
    if (!options.input_shapes.emplace(name, dims).second)
      throw InputError("", "--input-shape", "'" + name + "' is given twice");
  }
  return options;
}

void add_calibrate_options(CLI::App& cmd, CalibrateOptions& c) {
  cmd.add_option("--calibrate", c.inputs,
                 "ONNX models: pick each tensor's power-of-two scale from N seeded random inputs run through a "
                 "float evaluation of the graph, instead of the fixed rules; the chosen exponents go in the "
                 "report's calibration section, e.g. --calibrate 8")
      ->check(CLI::Range(1, 1000));
  // CLI11 would read -1 as 2^64 - 1 and saturate 2^64 there: only plain digits that fit are taken.
  const CLI::Validator whole_seed(
      [](std::string& text) {
        errno = 0;
        const bool digits = !text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789") == std::string::npos;
        if (digits) std::strtoull(text.c_str(), nullptr, 10);
        return digits && errno == 0 ? std::string() : "expected a whole number from 0 to 18446744073709551615";
      },
      "SEED");
  cmd.add_option("--calibration-seed", c.seed, "The seed of --calibrate's random inputs (default 1)")->check(whole_seed);
}

std::optional<Calibration> calibrate(const std::string& path, const CalibrateOptions& c, WorkloadOptions& options) {
  if (c.inputs == 0) return std::nullopt;
  if (!looks_like_onnx(path, ""))
    throw InputError(path, "--calibrate", "calibrates the scales of ONNX models (.onnx); JSON and CSV workloads give theirs");
  Calibration result = calibrate_onnx_workload(path, options, c.inputs, c.seed);
  options.calibrated_exponents = result.exponents;
  return result;
}

void print_workload_notes(const Workload& w, std::ostream& out) {
  for (const auto& note : w.notes) out << "note: " << w.file << ": " << note << "\n";
}

}  // namespace npusim
