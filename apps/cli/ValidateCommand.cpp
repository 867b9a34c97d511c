#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps/cli/BundledFiles.h"
#include "apps/cli/Cli.h"
#include "apps/frontend/onnx/OnnxWorkload.h"
#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/config/ConfigLoader.h"
#include "sim/trace/TraceReader.h"

namespace npusim {

namespace {

struct ValidateOptions {
  std::string file;
  std::string config = "configs/default.json";
  std::vector<std::string> input_shapes;
};

// An ONNX model: the imported layer list with shapes and MACs.
void print_onnx_workload(const std::string& file, const Workload& w) {
  std::uint64_t macs = 0;
  std::cout << fmt::format("{}: valid ONNX model, {} layers, batch {}, input {}x{}x{} (h x w x c)\n", file,
                           w.layers.size(), w.batch, w.input.h, w.input.w, w.input.c);
  for (const Layer& l : w.layers) {
    macs += l.macs() * w.batch;
    const std::string scale = l.onnx ? fmt::format("2^{}", l.onnx->scale_exponent) : "";
    std::cout << fmt::format("  {:<32} {:<9} {:>4}x{:<4}x{:<5} -> {:>4}x{:<4}x{:<5} {}{:>14} MACs  {:>5} step\n",
                             l.name, layer_kind_name(l.kind), l.in.h, l.in.w, l.in.c, l.out.h, l.out.w, l.out.c,
                             l.relu ? "relu " : "     ", l.macs() * w.batch, scale);
  }
  std::cout << fmt::format("  total {} MACs\n", macs);
  print_workload_notes(w, std::cout);
}

// The file's first byte, all looks_like_onnx needs: a long trace is streamed later, not read whole here.
std::string first_byte(const std::string& path) {
  std::ifstream in = open_input_file(path);
  char c = 0;
  return in.get(c) ? std::string(1, c) : std::string();
}

void validate(const ValidateOptions& opt) {
  if (looks_like_onnx(opt.file, first_byte(opt.file))) {
    print_onnx_workload(opt.file, read_workload(opt.file, workload_options(opt.input_shapes, false)));
    return;
  }
  if (!opt.input_shapes.empty()) throw InputError("", "--input-shape", "is for ONNX models only");
  if (looks_like_trace(opt.file)) {
    HardwareConfig hw = load_hardware_config(bundled_file(opt.config));
    std::uint64_t count = validate_trace(opt.file, hw);
    std::cout << opt.file << ": valid trace, " << count << " instructions (checked against "
              << display_name(opt.config) << ")\n";
    return;
  }
  HardwareConfig hw = load_hardware_config(opt.file);
  std::cout << resolved_config_json(hw).dump(2) << "\n";
}

}  // namespace

void add_validate_command(CLI::App& app) {
  auto opt = std::make_shared<ValidateOptions>();
  CLI::App* cmd = app.add_subcommand("validate", "Check a hardware config, an instruction trace or an ONNX model");
  cmd->add_option("file", opt->file, "A config (.json), a trace (.jsonl) or an ONNX model (.onnx)")->required();
  add_input_shape_option(*cmd, opt->input_shapes);
  add_config_option(*cmd, opt->config, "Config a trace is checked against (capacities, cores, engines)");
  set_help_footer(*cmd,
                  "For a config, prints the fully resolved JSON (every key, defaults filled in).\n"
                  "For a trace, reads every line and reports the first problem with its line and field.\n"
                  "For an ONNX model, imports it and prints the layer list with shapes, MACs and the value of one "
                  "int8\nstep of each layer's output (its power-of-two scale, docs/workload-format.md).",
                  {"npusim validate configs/numa-2x2.json",
                   "npusim validate traces/examples/multicore.jsonl --config configs/smp-2x2.json"});
  cmd->callback([opt] { validate(*opt); });
}

}  // namespace npusim
