// `npusim explore`: design-space exploration (docs/exploration.md). The search itself is
// optuna's, in Python (python/npusim/exploration); this command hands its arguments to
// `python3 -m npusim.exploration`, which runs the trials as `npusim sweep` batches of this
// very binary. It replaces itself by the interpreter, so Ctrl-C, exit statuses and output
// are the explorer's own.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "SourcePaths.h"
#include "apps/cli/Cli.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

// Debian's interpreter, where apt installs python3-optuna and python3-pandas; a python3
// found first on PATH (a pyenv, a venv) usually lacks them. NPUSIM_PYTHON overrides it.
const char* kDefaultPython = "/usr/bin/python3";

struct ExploreCommandOptions {
  std::string spec, out, backend;
  std::optional<unsigned> trials, jobs;
  std::optional<std::uint32_t> seed;
  bool quiet = false;
};

std::vector<std::string> explorer_arguments(const std::string& python, const ExploreCommandOptions& opt) {
  std::vector<std::string> args = {python, "-m", "npusim.exploration", opt.spec};
  if (!opt.out.empty()) args.insert(args.end(), {"--out", opt.out});
  if (opt.trials) args.insert(args.end(), {"--trials", std::to_string(*opt.trials)});
  if (opt.jobs) args.insert(args.end(), {"--jobs", std::to_string(*opt.jobs)});
  if (opt.seed) args.insert(args.end(), {"--seed", std::to_string(*opt.seed)});
  if (!opt.backend.empty()) args.insert(args.end(), {"--backend", opt.backend});
  if (opt.quiet) args.emplace_back("--quiet");
  return args;
}

// The package comes from the source tree this binary was built from, and its sweeps run
// this binary: an explorer never mixes two checkouts.
void set_explorer_environment() {
  const std::string package = (std::filesystem::path(NPUSIM_SOURCE_DIR) / "python").string();
  const char* path = std::getenv("PYTHONPATH");
  const std::string python_path = path && *path ? package + ":" + path : package;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  setenv("PYTHONPATH", python_path.c_str(), 1);
  setenv("NPUSIM_BIN", self.c_str(), 1);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
}

[[noreturn]] void run_explorer(const ExploreCommandOptions& opt) {
  const char* chosen = std::getenv("NPUSIM_PYTHON");
  const std::string python = chosen && *chosen ? chosen : kDefaultPython;
  std::vector<std::string> args = explorer_arguments(python, opt);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  set_explorer_environment();
  // The interruption watcher (sim/common/Interruption.cpp) blocked these in this thread, and a
  // mask survives exec: unblocked, Ctrl-C and SIGTERM reach the explorer, which stops its sweep.
  sigset_t interruptions;
  sigemptyset(&interruptions);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&interruptions, sig);
  pthread_sigmask(SIG_UNBLOCK, &interruptions, nullptr);
  std::cout.flush();
  std::cerr.flush();
  execv(python.c_str(), argv.data());
  throw InputError(python, "", fmt::format("cannot run it ({}): npusim explore needs Python 3 with optuna, pandas "
                                           "and matplotlib (scripts/setup.sh installs Debian's), or NPUSIM_PYTHON "
                                           "naming one that has them",
                                           std::strerror(errno)));
}

}  // namespace

void add_explore_command(CLI::App& app) {
  auto opt = std::make_shared<ExploreCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "explore", "Search a design space (axes, objectives, constraints) with optuna instead of a full grid");
  cmd->add_option("SPEC", opt->spec, "Exploration spec (JSON, see docs/exploration.md)")->required();
  cmd->add_option("-o,--out", opt->out, "Exploration folder; running again with the same one resumes "
                                        "(default: explorations/<spec>)");
  cmd->add_option("--trials", opt->trials, "Trial budget: simulations in all (default: the spec's \"trials\")")
      ->check(CLI::Range(1u, 1000000u));
  cmd->add_option("-j,--jobs", opt->jobs, "Local backend: simulations at once (default: every core)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opt->seed, "Seed of the sampler (default: the spec's \"seed\", else 0); "
                                       "the same seed gives the same trials");
  cmd->add_option("--backend", opt->backend, "local (default, or the spec's \"backend\") or slurm: each batch "
                                             "of trials is one sbatch array job")
      ->check(CLI::IsMember({"local", "slurm"}));
  add_quiet_flag(*cmd, opt->quiet);
  set_help_footer(
      *cmd,
      "Samples points of the spec's axes (integer ranges, lists, log ranges at JSON pointers) with\n"
      "random search, TPE or NSGA-II (optuna), runs each batch of trials as an `npusim sweep`, and\n"
      "writes OUT/trials.csv (every trial), OUT/pareto.csv (the front of the trials that respect\n"
      "every constraint) and OUT/pareto.png. The study is kept in OUT/study.db: running again with\n"
      "the same OUT resumes without losing a trial, and --trials can raise the budget.\n"
      "\nRuns Debian's /usr/bin/python3 (NPUSIM_PYTHON overrides it) with the package python/npusim\n"
      "of this checkout. A bad spec stops everything with one line naming its key, exit status 2.",
      {"npusim explore configs/explore/resnet50-6axes.json --out explorations/r50",
       "npusim explore configs/explore/resnet50-6axes.json --out explorations/r50 --trials 200   (resumes, "
       "adds trials)",
       "npusim explore configs/explore/resnet50-6axes.json --seed 7 -j 2 --out explorations/r50-seed7",
       "npusim explore configs/explore/resnet50-6axes.json --backend slurm --out /shared/explorations/r50"});
  cmd->callback([opt] { run_explorer(*opt); });
}

}  // namespace npusim
