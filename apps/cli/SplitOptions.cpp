#include <CLI/CLI.hpp>

#include "apps/cli/BundledFiles.h"
#include "apps/cli/Cli.h"
#include "apps/simulation/LayerTrial.h"

namespace npusim {

void add_split_options(CLI::App& cmd, std::string& split, std::string& strategies) {
  cmd.add_option("--split", split,
                 "How each conv and fc layer is shared by its cores (seed002): auto = of the modes the "
                 "split-strategy database allows, the one whose layer simulates fastest alone on the chip; data = bands or images per core; model-co = output channels per "
                 "core; model-ci = input channels per core, int32 partial sums reduced between cores; model = the "
                 "cheaper model mode. A layer that cannot split the forced way stays data parallel. Default: the "
                 "workload's \"split\", else auto")
      ->check(CLI::IsMember(split_choice_names()));
  cmd.add_option("--split-strategies", strategies,
                 "Split-strategy database (JSON); default: configs/split-strategies/shared-cache.json when the "
                 "chip has cluster caches, else bus-contention.json");
}

SplitOptions split_options(const std::string& split, const std::string& strategies) {
  SplitOptions options;
  if (!split.empty()) options.choice = parse_split_choice(split);
  if (!strategies.empty()) options.strategy_file = bundled_file(strategies);
  options.trial = simulate_layer_trial;  // auto asks the simulator, not an estimate
  return options;
}

}  // namespace npusim
