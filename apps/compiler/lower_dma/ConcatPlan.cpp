// Placing and planning concat: data movement only, by the load and store DMAs.
#include "apps/compiler/lower_dma/ConcatLowering.h"

#include "apps/compiler/tiling/LayerTiler.h"

namespace npusim {

std::vector<std::string> ConcatLowering::takes(const Layer& l) const {
  if (l.kind != LayerKind::Concat && l.kind != LayerKind::GatherChannels && !l.has_table()) return {};
  return {"load", "store"};
}

void ConcatLowering::plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const {
  tile_bands(w, l, hw, t);
}

}  // namespace npusim
