#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "apps/cli/Cli.h"
#include "apps/regression/DiffFormats.h"
#include "apps/regression/RunDiff.h"

namespace npusim {

namespace {

struct DiffCommandOptions {
  std::string run_a;
  std::string run_b;
  DiffOptions diff;
  std::size_t max_rows = 50;
  std::string format = "table";
};

int diff(const DiffCommandOptions& opt) {
  const RunOutputs a = load_run_outputs(opt.run_a);
  const RunOutputs b = load_run_outputs(opt.run_b);
  const DiffResult result = diff_runs(a, b, opt.diff);
  print_diff(std::cout, diff_format_named(opt.format), result,
             DiffShown{opt.run_a, opt.run_b, opt.diff.tolerance_pct, opt.max_rows});
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
  cmd->add_option("--max-rows", opt->max_rows, "Differences to list in a table or markdown; 0 lists all")
      ->capture_default_str();
  cmd->add_option("--format", opt->format,
                  "table (for a terminal), markdown (for a CI job summary) or junit (XML for a CI test report)")
      ->capture_default_str()
      ->check(CLI::IsMember({"table", "markdown", "junit"}));
  set_help_footer(*cmd,
                  "Compares report.json totals, per-engine, per-memory and per-layer rows (matched by name)\n"
                  "and instructions.csv rows (matched by id). Exit status: 0 within tolerance, 1 a difference,\n"
                  "2 bad input (missing directory or file, malformed JSON or CSV), in every format.\n"
                  "\n--format junit: one test case per compared group of figures (an engine, a memory, a layer,\n"
                  "an instruction, a section's totals), one <failure> per figure moved beyond the tolerance.",
                  {"npusim diff runs/conv-001 runs/conv-002",
                   "npusim diff traces/golden/conv/expected runs/conv --tolerance 0",
                   "npusim diff runs/a runs/b --tolerance 2 --metric total_cycles busy_cycles",
                   "npusim diff traces/golden/conv/expected runs/conv --format markdown >> summary.md",
                   "npusim diff traces/golden/conv/expected runs/conv --format junit > diff-junit.xml"});
  // The status has to reach main(): CLI11 callbacks return nothing, so the
  // difference is signalled through an exception the CLI maps to status 1.
  cmd->callback([opt] {
    if (diff(*opt) != kExitOk) throw CLI::RuntimeError(kExitDifference);
  });
}

}  // namespace npusim
