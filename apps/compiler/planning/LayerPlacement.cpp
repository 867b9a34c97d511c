#include "apps/compiler/planning/LayerPlacement.h"

#include <fmt/format.h>

#include "apps/compiler/emit/Lowering.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

// The lowering that computes `l`, with the layer placed on its cores.
const Lowering& place_layer(const Workload& w, const Layer& l, LayerTiling& t, const HardwareConfig& hw) {
  if (l.kind == LayerKind::Depthwise && !l.engine.empty())
    throw InputError(w.file, layer_place(l) + ", field 'engine'",
                     "grouped (depthwise) convolutions run on the vector unit; leave out 'engine'");
  for (const Lowering* lowering : lowerings())
    if (lowering->probe(w, l, t, hw)) return *lowering;
  std::vector<std::string> wanted;
  for (const Lowering* lowering : lowerings()) {
    const std::vector<std::string> engines = lowering->takes(l);
    if (engines.empty()) continue;
    if (place_on(lowering->name(), engines, t, hw)) return *lowering;
    wanted.push_back(fmt::format("{}", fmt::join(engines, ", ")));
  }
  throw InputError(w.file, layer_place(l),
                   fmt::format("needs a core with engines {}, and no core of this chip has them all",
                               fmt::join(wanted, " (or) ")));
}

}  // namespace

LayerTiling tile_layer(const Workload& w, const Layer& l, const HardwareConfig& hw, const ChannelShares* shares) {
  LayerTiling t = start_tiling(l);
  const Lowering& lowering = place_layer(w, l, t, hw);
  if (shares && shares->mode != ParallelMode::Data) apply_shares(l, t, *shares);
  lowering.plan(w, l, hw, t);
  return t;
}

}  // namespace npusim
