#pragma once
#include <map>
#include <optional>
#include <string>

#include "apps/compiler/planning/SplitPlanner.h"
#include "apps/compiler/tiling/LoadOrder.h"

namespace npusim {

// Chooses each conv and fc layer's load order (tiling/LoadOrder.h) once the split planner
// has chosen how its cores share it, and tiles it for that order. --load-order forces one;
// auto runs every order alone on the chip with the layer's split mode forced (the options'
// `figures` trial) and takes the fewest cycles, weight-stationary on a tie; a layer whose
// weights make one block loads every byte once in any order and stays weight-stationary.
// Unset: weight-stationary, and the layer's tiling carries no note (nothing reported).
class LoadOrderPlanner {
 public:
  LoadOrderPlanner(const Workload& w, const HardwareConfig& hw, const SplitOptions& options);

  // `t`: the layer as the split planner tiled it (weight-stationary); re-tiled in place.
  void plan(const Layer& l, LayerTiling& t, bool input_chained) const;

 private:
  LayerTiling tiled(const Layer& l, const LayerTiling& t, const LoadOrderPlan& order, bool input_chained) const;
  void run_trials(const Layer& l, const LayerTiling& t, LoadOrderPlan& order) const;
  void pick_fastest(LoadOrderPlan& order) const;

  const Workload& w_;
  const HardwareConfig& hw_;
  SplitOptions options_;
  mutable std::map<std::string, std::optional<LayerFigures>> trials_;  // by layer shape, split and order
};

}  // namespace npusim
