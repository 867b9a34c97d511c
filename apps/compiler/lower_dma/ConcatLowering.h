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
  // Per input, its band rows into a region of the slot, then stored into the input's
  // channels of the output (ConcatTiles.cpp).
  void emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const override;
};

}  // namespace npusim
