#pragma once
#include "apps/compiler/emit/Lowering.h"

namespace npusim {

// Depthwise conv, pooling, row ops (softmax, layer norm, ...), add and relu on the vector unit.
class VectorLowering : public Lowering {
 public:
  std::string name() const override { return "vector"; }
  int rank() const override { return 40; }

  // ---- Planning, the per-layer report section, explain, CLI overrides ----
  std::vector<std::string> takes(const Layer& l) const override;
  void plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const override;

  // ---- Emission (EmitContext) ----
};

}  // namespace npusim
