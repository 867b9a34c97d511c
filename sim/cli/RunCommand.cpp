#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "sim/cli/BundledFiles.h"
#include "sim/cli/Cli.h"
#include "sim/config/ConfigLoader.h"
#include "sim/kernel/ProgressMeter.h"
#include "sim/kernel/Simulation.h"
#include "sim/report/OutputDirectory.h"

namespace npusim {

namespace {

struct RunOptions {
  std::string config = "configs/default.json";
  std::string trace = "traces/examples/relu.jsonl";
  std::string out;
  bool functional = false;
  bool quiet = false;
};

void run(const RunOptions& opt) {
  SimulationRequest request;
  const std::string config_path = bundled_file(opt.config);
  request.hardware = load_hardware_config(config_path);
  request.config_name = display_name(config_path);
  request.trace_path = bundled_file(opt.trace);
  request.functional = opt.functional;
  request.out_dir = opt.out.empty()
                        ? fresh_run_directory("runs", std::filesystem::path(request.trace_path).stem().string())
                        : opt.out;
  request.show_progress = !opt.quiet && ProgressMeter::terminal_attached();
  request.summary = opt.quiet ? nullptr : &std::cout;
  simulate_trace(request);
  if (!opt.quiet) std::cout << "\nrun directory: " << request.out_dir << "\n";
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto opt = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Simulate an instruction trace on a hardware config");
  cmd->add_option("-c,--config", opt->config, "Hardware config (JSON)")->capture_default_str();
  cmd->add_option("-t,--trace", opt->trace, "Instruction trace (JSON Lines)")->capture_default_str();
  cmd->add_option("-o,--out", opt->out,
                  "Run directory to write (replaced atomically); default: a fresh runs/<trace>-NNN");
  cmd->add_flag("-f,--functional", opt->functional,
                "Also compute real tensor values: load the trace's input .npy files, "
                "write its outputs to OUT/tensors/<name>.npy");
  cmd->add_flag("-q,--quiet", opt->quiet, "Print nothing on success (no summary, no progress bar)");
  cmd->footer(
      "\nWrites OUT/report.json, OUT/instructions.csv and OUT/timeline.json (open it in\n"
      "https://ui.perfetto.dev), and prints a summary table.\n"
      "\nExamples:\n"
      "  npusim run\n"
      "  npusim run --config configs/smp-2x2.json --trace traces/examples/multicore.jsonl\n"
      "  npusim run --trace traces/examples/relu.jsonl --functional --out runs/relu");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace npusim
