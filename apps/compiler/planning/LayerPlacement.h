#pragma once
#include "apps/compiler/tiling/LayerTiler.h"

namespace npusim {

// How one layer is placed and tiled, through the lowering registry (emit/Lowering.h):
// a lowering whose probe() claims it (the sparse cluster), else the first by rank that
// takes() it and whose engines some core kind has; that lowering then plans it. With
// `shares`, the layer is tiled for one core's share of a model mode. Throws InputError
// naming the layer when no core kind can run it or it does not fit.
LayerTiling tile_layer(const Workload& w, const Layer& l, const HardwareConfig& hw,
                       const ChannelShares* shares = nullptr);

}  // namespace npusim
