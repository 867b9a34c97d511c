#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "apps/cli/Cli.h"
#include "apps/regression/DiffTable.h"
#include "apps/regression/RunDiff.h"

namespace npusim {

namespace {

struct DiffCommandOptions {
  std::string run_a;
  std::string run_b;
  DiffOptions diff;
  std::size_t max_rows = 50;
};

int diff(const DiffCommandOptions& opt) {
  const RunOutputs a = load_run_outputs(opt.run_a);
  const RunOutputs b = load_run_outputs(opt.run_b);
  const DiffResult result = diff_runs(a, b, opt.diff);
  std::cout << "A: " << opt.run_a << "\nB: " << opt.run_b << "\n";
  print_diff_table(std::cout, result, opt.diff.tolerance_pct, opt.max_rows);
  return result.differences.empty() ? kExitOk : kExitDifference;
}

}  // namespace

void add_diff_command(CLI::App& app) {
  auto opt = std::make_shared<DiffCommandOptions>();
  CLI::App* cmd = app.add_subcommand("diff", "Compare two run directories (or a run against a golden directory)");
  cmd->add_option("RUN_A", opt->run_a, "Reference run directory (report.json + instructions.csv)")->required();
  cmd->add_option("RUN_B", opt->run_b, "Run directory to check against it")->required();
  cmd->add_option("--tolerance", opt->diff.tolerance_pct,
                  "Allowed relative change in percent; 0 means values must be equal")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--metric", opt->diff.metrics,
                  "Compare only these fields (e.g. total_cycles busy_cycles end); default: all")
      ->expected(1, -1);
  cmd->add_option("--max-rows", opt->max_rows, "Differences to print; 0 prints all")->capture_default_str();
  set_help_footer(*cmd,
                  "Compares report.json totals, per-engine, per-memory and per-layer rows (matched by name)\n"
                  "and instructions.csv rows (matched by id). Exit status: 0 within tolerance, 1 a difference,\n"
                  "2 bad input (missing directory or file, malformed JSON or CSV).",
                  {"npusim diff runs/conv-001 runs/conv-002",
                   "npusim diff traces/golden/conv/expected runs/conv --tolerance 0",
                   "npusim diff runs/a runs/b --tolerance 2 --metric total_cycles busy_cycles"});
  // The status has to reach main(): CLI11 callbacks return nothing, so the
  // difference is signalled through an exception the CLI maps to status 1.
  cmd->callback([opt] {
    if (diff(*opt) != kExitOk) throw CLI::RuntimeError(kExitDifference);
  });
}

}  // namespace npusim
