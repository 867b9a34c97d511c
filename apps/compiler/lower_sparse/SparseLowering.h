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
};

}  // namespace npusim
