#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apps/compiler/tiling/LayerSplit.h"
#include "apps/compiler/tiling/LayerTiler.h"
#include "apps/compiler/tiling/LoadOrder.h"
#include "apps/frontend/workload/SplitChoice.h"
#include "apps/frontend/workload/Workload.h"
#include "apps/tags/SplitStrategy.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

struct SplitOptions;
// What a one-layer trial measures: its cycles, and the DRAM bytes its loads and stores move.
struct LayerFigures {
  std::uint64_t cycles = 0, dram_bytes = 0;
};
using LayerFiguresTrial =
    std::function<std::optional<LayerFigures>(const Workload&, const HardwareConfig&, const SplitOptions&)>;
// Simulates a one-layer workload on the chip with the options' forced split and gives its
// cycles (none: the run failed). Set by the command line (apps/simulation/LayerTrial.h):
// the compiler cannot run the simulator itself.
using LayerTrial = std::function<std::optional<std::uint64_t>(const Workload&, const HardwareConfig&, const SplitOptions&)>;

// Trial cycles by layer shape and mode, shared by the planners of one compile (and by the
// trials it forks, which inherit it).
using TrialCache = std::map<std::string, std::optional<std::uint64_t>>;

struct SplitOptions {
  std::optional<SplitChoice> choice;  // unset: the workload's "split", else auto
  std::string strategy_file;  // empty: the shipped database of the chip's family
  // Set: auto picks the candidate whose own simulation is fastest; unset: the estimate.
  LayerTrial trial;
  // Each conv/fc layer's load order (LoadOrder.h; planning/LoadOrderPlanner.h), and the
  // trial --load-order auto runs every candidate order with.
  LoadOrderOptions load_order;
  LayerFiguresTrial figures;
  // Auto considers only these modes (data always); empty: every mode the database lists.
  std::vector<ParallelMode> modes;
  std::shared_ptr<TrialCache> trials;  // unset: each planner keeps its own
  // With trials: when auto's picks differ from those of the three pure modes, the whole
  // network runs both ways and the faster is kept (TraceEmitter.cpp, plan_layers).
  bool check_network = true;
};

// The layer alone: its input a fresh network input of its shape, so that a trial times
// the layer and nothing before it.
Workload one_layer(const Workload& w, const Layer& l);
// Everything about a layer that its timing depends on (the chip is the planner's), in mode `m`.
std::string shape_key(const Layer& l, ParallelMode m);
// The --split choice that forces mode `m`.
SplitChoice forced_split(ParallelMode m);

// The database's operators are the layer kinds' names (layer_kind_name).

// Chooses each layer's mode and tiles it for that mode.
class SplitPlanner {
 public:
  SplitPlanner(const Workload& w, const HardwareConfig& hw, const SplitOptions& options);

  const SplitStrategyDatabase& database() const { return db_; }
  // `out_degree`: how many later layers read the layer's output (0 = a network output).
  // `index`: the layer's position in the workload.
  // `input_chained`: see tile_layer().
  std::pair<LayerTiling, LayerSplit> plan(const Layer& l, std::uint32_t out_degree, std::size_t index,
                                          bool input_chained = false) const;

 private:
  std::uint32_t rule_cores(const LayerTiling& data, ParallelMode m) const;
  std::optional<SplitDecision> rule(const Layer& l, const ModeStrategy& m, std::uint32_t cores) const;
  std::optional<ChannelShares> shares_for(const Layer& l, const LayerTiling& data, ParallelMode m,
                                          std::size_t first) const;
  // One mode the layer can take, tiled for it, with its estimated cycles (0: not estimated).
  struct Candidate {
    ParallelMode mode;
    LayerTiling tiling;
    double estimate = 0;
    std::optional<std::uint64_t> simulated;  // the trial's cycles
  };
  std::vector<Candidate> candidates(const Layer& l, std::size_t index, std::optional<ParallelMode>& rule_choice,
                                    bool input_chained) const;
  std::size_t pick(const Layer& l, const std::vector<Candidate>& candidates, std::optional<ParallelMode> rule_choice,
                   std::string& why) const;
  // `band_cycles`: the lowering's cycles for one band of one weight block.
  double estimate(const Layer& l, const LayerTiling& t, double band_cycles) const;
  LayerSplit tag(const Layer& l, const LayerTiling& t, std::uint32_t out_degree) const;
  // Runs each candidate alone through the trial (auto only), once per layer shape and mode.
  void simulate(const Layer& l, std::vector<Candidate>& found) const;
  SplitChoice choice_for(const Layer& l) const;  // --split, else the layer's, else the workload's, else auto
  std::size_t fastest(const std::vector<Candidate>& candidates, std::size_t first, std::string& why) const;

  const Workload& w_;
  const HardwareConfig& hw_;
  SplitOptions options_;
  SplitStrategyDatabase db_;
  std::shared_ptr<TrialCache> trials_;  // by layer shape and mode
};

}  // namespace npusim
