#pragma once
#include "apps/compiler/emit/Lowering.h"

namespace npusim {

// Depthwise conv, pooling, row ops (softmax, layer norm, ...), add and relu on the vector unit.
class VectorLowering : public Lowering {
 public:
  VectorLowering() : Lowering("vector", 40) {}

  // Placement and tiling (VectorPlan.cpp).
  std::vector<std::string> takes(const Layer& l) const override;
  void plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const override;

  // Emission: per band: loads, one vector-unit instruction, requant or relu, store
  // (VectorTiles.cpp).
  std::unique_ptr<LoweringState> make_state(const EmitContext& ctx) const override;
  void emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const override;
};

}  // namespace npusim
