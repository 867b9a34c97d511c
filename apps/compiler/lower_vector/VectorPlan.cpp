// Placing and planning the layers the vector unit computes.
#include "apps/compiler/lower_vector/VectorLowering.h"

#include "apps/compiler/tiling/LayerTiler.h"

namespace npusim {

// Every layer that is not a conv, fc, matmul, concat, embedding or concat_tokens, moved by the load and store DMAs.
std::vector<std::string> VectorLowering::takes(const Layer& l) const {
  if (l.kind == LayerKind::Conv || l.kind == LayerKind::Fc || l.kind == LayerKind::Matmul ||
      l.kind == LayerKind::Concat || l.kind == LayerKind::GatherChannels || l.has_table())
    return {};
  return {"load", "store", name()};
}

void VectorLowering::plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const {
  tile_bands(w, l, hw, t);
}

}  // namespace npusim
