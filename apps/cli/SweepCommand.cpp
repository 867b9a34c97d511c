#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps/cli/Cli.h"
#include "apps/simulation/ProgressMeter.h"
#include "apps/sweep/SweepRunner.h"
#include "apps/sweep/SweepSpec.h"

namespace npusim {

namespace {

struct SweepCommandOptions {
  std::string spec;
  std::string out;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  bool quiet = false;
};

void sweep(const SweepCommandOptions& opt) {
  const SweepSpec spec = load_sweep_spec(opt.spec);
  SweepOptions options;
  options.out = opt.out.empty() ? (std::filesystem::path("sweeps") / std::filesystem::path(opt.spec).stem()).string()
                                : opt.out;
  options.jobs = opt.jobs;
  options.show_progress = !opt.quiet && ProgressMeter::terminal_attached();
  const SweepCounts c = run_sweep(spec, options);
  if (opt.quiet) return;
  // Tests and scripts read this line to see what a resumed sweep re-ran.
  std::cout << fmt::format("sweep: {} points: {} run, {} skipped (already complete), {} failed\n", c.points, c.run,
                           c.skipped, c.failed)
            << "results: " << (std::filesystem::path(options.out) / "results.csv").string() << "\n";
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto opt = std::make_shared<SweepCommandOptions>();
  CLI::App* cmd = app.add_subcommand("sweep", "Run a config sweep (axes of JSON pointer -> values) in parallel");
  cmd->add_option("SPEC", opt->spec, "Sweep spec (JSON, see docs/sweeps.md)")->required();
  cmd->add_option("-o,--out", opt->out, "Sweep directory; running again with the same one resumes (default: sweeps/<spec>)");
  cmd->add_option("-j,--jobs", opt->jobs, "Simulations at once (default: every core)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_flag("-q,--quiet", opt->quiet, "Print nothing on success");
  cmd->footer(
      "\nWrites OUT/points/<index>-<axis=value...>/ (a run directory plus config.json, point.json,\n"
      "and error.txt for a failed point) and OUT/results.csv, one row per point. Points whose\n"
      "directory is already complete are skipped. A point that fails (an invalid config, a\n"
      "trace that does not fit) is a failed row; the sweep goes on and exits 0.\n"
      "\nExamples:\n"
      "  npusim sweep configs/sweeps/conv-slaves.json --out sweeps/conv\n"
      "  npusim sweep configs/sweeps/conv-slaves.json -j 2 --out sweeps/conv   (resumes)");
  cmd->callback([opt] { sweep(*opt); });
}

}  // namespace npusim
