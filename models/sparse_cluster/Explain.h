#pragma once
#include <cstdint>
#include <string>

#include "models/matrix_unit/ConvShape.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// The zero fractions explain assumes for a layer's input map and weights.
struct LayerSparsity {
  double ifm = 0, weights = 0;
  std::uint64_t seed = 1;
};
// Parses "ifm=0.9,weights=0.5[,seed=7]"; throws InputError naming the bad part.
LayerSparsity parse_sparsity_spec(const std::string& spec);

// The scheduling engine's one-line verdict for the layer on the chip's first core kind
// with a sparse cluster, or "" when the chip has none.
std::string sparse_verdict_line(const HardwareConfig& cfg, const ConvShape& layer, const LayerSparsity& zeros);
bool sparse_verdict(const HardwareConfig& cfg, const ConvShape& layer, const LayerSparsity& zeros);

// `npusim explain --engine sparse`: the scheduling engine's verdict, the partition of
// one image's output map over the units, and per unit the rounds, products,
// collisions and VAR windows of process 1600, from the same SparseConvPlan and
// convolve_submap the engine runs. Throws InputError when the chip has no sparse
// cluster or the kernel does not fit its MINs.
std::string explain_sparse_layer(const HardwareConfig& cfg, const ConvShape& layer, const LayerSparsity& zeros);

}  // namespace npusim
