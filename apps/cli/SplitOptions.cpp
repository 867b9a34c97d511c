#include <CLI/CLI.hpp>

#include "apps/cli/BundledFiles.h"
#include "apps/cli/Cli.h"
#include "apps/simulation/LayerTrial.h"

namespace npusim {

void add_split_options(CLI::App& cmd, std::string& split, std::string& strategies, double& trial_seconds) {
  cmd.add_option("--split", split,
                 "How each conv and fc layer is shared by its cores (seed002 ¶55, §3.9); default: the workload's "
                 "\"split\", else auto. A layer that cannot split the forced way stays data parallel.\n"
                 "  auto       every mode the split-strategy database allows, each simulated alone; the fastest\n"
                 "  data       bands or images per core; every core reads all weights\n"
                 "  model-co   output channels per core; every core reads every band\n"
                 "  model-ci   input channels per core; int32 partial sums reduced between all the cores\n"
                 "  model      the cheaper of model-co and model-ci\n"
                 "  hybrid-co  output channels per core inside each cluster, bands or images per cluster\n"
                 "  hybrid-ci  input channels per core inside each cluster (sums reduced in the cluster), bands "
                 "or images per cluster")
      ->check(CLI::IsMember(split_choice_names()));
  cmd.add_option("--split-strategies", strategies,
                 "Split-strategy database (JSON); default: configs/split-strategies/shared-cache.json when the "
                 "chip has cluster caches, else bus-contention.json");
  cmd.add_option("--split-trial-seconds", trial_seconds,
                 "With --split auto: the most seconds one layer's trial (its simulation alone, in a child "
                 "process) may take; past it the run stops and says which layer. Default: 600")
      ->check(CLI::Range(0.001, 1e6));
}

SplitOptions split_options(const std::string& split, const std::string& strategies, double trial_seconds) {
  SplitOptions options;
  if (!split.empty()) options.choice = parse_split_choice(split);
  if (!strategies.empty()) options.strategy_file = bundled_file(strategies);
  use_simulated_trials(options, trial_seconds);  // auto asks the simulator, not an estimate
  return options;
}

}  // namespace npusim
