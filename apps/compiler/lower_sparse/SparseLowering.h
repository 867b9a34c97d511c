#pragma once
#include "apps/compiler/emit/Lowering.h"

namespace npusim {

// Conv and fc on the sparse tensor cluster (seed001), when its scheduling engine calls the layer sparse.
class SparseLowering : public Lowering {
 public:
  std::string name() const override { return "sparse"; }
  int rank() const override { return 10; }

  // ---- Planning, the per-layer report section, explain, CLI overrides ----

  // ---- Emission (EmitContext) ----
  // The weights compressed once, then per band: compress the input rows into one of the
  // core's two DRAM slots, and sparse_conv them (SparseTiles.cpp).
  std::unique_ptr<LoweringState> make_state(const EmitContext& ctx) const override;
  bool whole_tensors() const override { return true; }
  void place_layer(EmitContext& ctx, CompiledLayer& c) const override;
  void place_workload(EmitContext& ctx) const override;
  void emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const override;
};

}  // namespace npusim
