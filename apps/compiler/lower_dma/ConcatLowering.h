#pragma once
#include "apps/compiler/emit/Lowering.h"

namespace npusim {

// Concat: data movement only, by the load and store DMAs.
class ConcatLowering : public Lowering {
 public:
  std::string name() const override { return "dma"; }
  int rank() const override { return 50; }

  // ---- Planning, the per-layer report section, explain, CLI overrides ----
  std::vector<std::string> takes(const Layer& l) const override;
  void plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const override;

  // ---- Emission (EmitContext) ----
};

}  // namespace npusim
