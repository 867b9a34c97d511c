#include <iostream>

#include <CLI/CLI.hpp>

#include "apps/cli/Cli.h"
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

void print_workload_notes(const Workload& w, std::ostream& out) {
  for (const auto& note : w.notes) out << "note: " << w.file << ": " << note << "\n";
}

}  // namespace npusim
