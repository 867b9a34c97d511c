#pragma once
#include <cstdint>
#include <optional>

#include "apps/compiler/planning/SplitPlanner.h"

namespace npusim {

// SplitOptions::trial for the command line: compiles `one_layer` with `options` and runs
// it in timing mode on `hw`, in a child process (SystemC elaborates once per process,
// and the caller has not started its own run yet). Gives the run's cycles, or none when
// the child failed (the candidate is then compared by its estimate). The child dies with
// this process (also when it is interrupted or killed) and has `seconds` to finish: past
// them it is killed and the run stops with an InputError saying which layer and limit.
inline constexpr double kDefaultTrialSeconds = 600;
std::optional<std::uint64_t> simulate_layer_trial(const Workload& one_layer, const HardwareConfig& hw,
                                                  const SplitOptions& options, double seconds = kDefaultTrialSeconds);
// The same run, also giving the DRAM bytes the layer's loads and stores moved
// (SplitOptions::figures, for --load-order auto).
std::optional<LayerFigures> simulate_layer_figures(const Workload& one_layer, const HardwareConfig& hw,
                                                   const SplitOptions& options, double seconds = kDefaultTrialSeconds);
// Points `options.trial` and `options.figures` at the two above, each child given `seconds`:
// what `--split auto`, `--load-order auto` and `explain` ask of the simulator.
void use_simulated_trials(SplitOptions& options, double seconds = kDefaultTrialSeconds);

}  // namespace npusim
