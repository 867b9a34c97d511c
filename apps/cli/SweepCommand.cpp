#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps/cli/Cli.h"
#include "apps/simulation/runner/ProgressMeter.h"
#include "apps/sweep/SlurmBackend.h"
#include "apps/sweep/SweepRunner.h"
#include "apps/sweep/SweepSpec.h"

namespace npusim {

namespace {

struct SweepCommandOptions {
  std::string spec;
  std::string out;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  bool quiet = false;
  std::string backend;  // empty: the spec's, else local
  std::optional<std::string> partition;
  std::optional<std::uint32_t> array_limit, points_per_task;
  std::vector<std::string> sbatch_args;
  bool wait = false, collect = false;
  std::optional<std::size_t> slurm_task;
};

void print_counts(const SweepCounts& c, const std::string& out) {
  // Tests and scripts read this line to see what a resumed sweep re-ran.
  std::cout << fmt::format("sweep: {} points: {} run, {} skipped (already complete), {} failed\n", c.points, c.run,
                           c.skipped, c.failed)
            << "results: " << (std::filesystem::path(out) / "results.csv").string() << "\n";
}

SlurmOptions slurm_options(const SweepSpec& spec, const SweepCommandOptions& opt) {
  SlurmOptions s;
  static_cast<SlurmSettings&>(s) = spec.slurm;
  if (opt.partition) s.partition = *opt.partition;
  if (opt.array_limit) s.array_limit = *opt.array_limit;
  if (opt.points_per_task) s.points_per_task = *opt.points_per_task;
  if (!opt.sbatch_args.empty()) s.sbatch_args = opt.sbatch_args;
  s.wait = opt.wait;
  return s;
}

void slurm_sweep(const SweepSpec& spec, const SweepOptions& options, const SweepCommandOptions& opt) {
  if (!opt.collect) {
    const SlurmSubmission sub = submit_slurm_sweep(spec, options, slurm_options(spec, opt));
    if (sub.job_id.empty()) {
      if (!opt.quiet) print_counts(sub.counts, options.out);
      return;
    }
    if (!opt.wait) {
      if (!opt.quiet)
        std::cout << fmt::format("sweep: {} points: {} submitted as Slurm job {} ({} array tasks), {} skipped "
                                 "(already complete), {} failed\n"
                                 "collect when it has finished: npusim sweep {} --collect --out {}\n",
                                 sub.counts.points, sub.counts.run, sub.job_id, sub.tasks, sub.counts.skipped,
                                 sub.counts.failed, opt.spec, options.out);
      return;
    }
    if (!opt.quiet) std::cerr << fmt::format("sweep: Slurm job {}, {} array tasks\n", sub.job_id, sub.tasks);
    wait_for_slurm_job(spec, options, sub.job_id);
  }
  const SweepCounts c = collect_slurm_sweep(spec, options);
  if (!opt.quiet) print_counts(c, options.out);
}

void sweep(const SweepCommandOptions& opt) {
  const SweepSpec spec = load_sweep_spec(opt.spec);
  SweepOptions options;
  options.out = opt.out.empty() ? (std::filesystem::path("sweeps") / std::filesystem::path(opt.spec).stem()).string()
                                : opt.out;
  options.jobs = opt.jobs;
  options.show_progress = !opt.quiet && ProgressMeter::terminal_attached();
  if (opt.slurm_task) {
    run_slurm_task(spec, options.out, *opt.slurm_task);
    return;
  }
  const std::string backend = opt.backend.empty() ? spec.backend : opt.backend;
  if (backend == "slurm" || opt.collect) {
    slurm_sweep(spec, options, opt);
    return;
  }
  const SweepCounts c = run_sweep(spec, options);
  if (!opt.quiet) print_counts(c, options.out);
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto opt = std::make_shared<SweepCommandOptions>();
  CLI::App* cmd = app.add_subcommand("sweep", "Run a config sweep (axes of JSON pointer -> values), here or on Slurm");
  cmd->add_option("SPEC", opt->spec, "Sweep spec (JSON, see docs/sweeps.md)")->required();
  cmd->add_option("-o,--out", opt->out, "Sweep directory; running again with the same one resumes (default: sweeps/<spec>)");
  cmd->add_option("-j,--jobs", opt->jobs, "Local backend: simulations at once (default: every core)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  add_quiet_flag(*cmd, opt->quiet);
  cmd->add_option("--backend", opt->backend, "local (default, or the spec's \"backend\") or slurm: one sbatch array job")
      ->check(CLI::IsMember({"local", "slurm"}));
  cmd->add_option("--partition", opt->partition, "Slurm: partition to submit to (default: the cluster's default)");
  cmd->add_option("--array-limit", opt->array_limit, "Slurm: array tasks running at once (sbatch --array=...%N)")
      ->check(CLI::Range(1u, 1000000u));
  cmd->add_option("--points-per-task", opt->points_per_task,
                  "Slurm: points per array task (default 20): the job has ceil(points / K) tasks; each starts "
                  "on its own K points, then takes any no task has claimed")
      ->check(CLI::Range(1u, 1000000u));
  cmd->add_option("--sbatch-arg", opt->sbatch_args,
                  "Slurm: an extra sbatch argument, repeatable, e.g. --sbatch-arg=--time=00:10:00")
      ->allow_extra_args(false);
  cmd->add_flag("--wait", opt->wait, "Slurm: follow the job with a progress line, then collect results.csv");
  cmd->add_flag("--collect", opt->collect,
                "Slurm: after the job has finished, mark points no task finished as failed and write results.csv");
  cmd->add_option("--slurm-task", opt->slurm_task, "Internal: run one array task's points")->group("");
  set_help_footer(
      *cmd,
      "Writes OUT/points/<index>-<axis=value...>/ (a run directory plus config.json, point.json,\n"
      "and error.txt for a failed point) and OUT/results.csv, one row per point. Points whose\n"
      "directory is already complete are skipped. A point that fails (an invalid config, a\n"
      "trace that does not fit) is a failed row; the sweep goes on and exits 0.\n"
      "\nOn Slurm (--backend slurm) the points left to run become one sbatch --array job whose\n"
      "tasks write into OUT, which must be on a file system the nodes share; OUT/slurm/ holds the\n"
      "batch script and the tasks' logs. Cancel with scancel <job>; running again resumes.",
      {"npusim sweep configs/sweeps/conv-slaves.json --out sweeps/conv",
       "npusim sweep configs/sweeps/conv-slaves.json -j 2 --out sweeps/conv   (resumes)",
       "npusim sweep configs/sweeps/conv-slaves.json --backend slurm --points-per-task 20 --wait --out sweeps/conv",
       "npusim sweep configs/sweeps/conv-slaves.json --collect --out sweeps/conv   (after a job without --wait)"});
  cmd->callback([opt] { sweep(*opt); });
}

}  // namespace npusim
