#pragma once
#include "apps/compiler/emit/Lowering.h"

namespace npusim {

// Concat: data movement only, by the load and store DMAs.
class ConcatLowering : public Lowering {
 public:
  std::string name() const override { return "dma"; }
  int rank() const override { return 50; }

  // ---- Planning, the per-layer report section, explain, CLI overrides ----

  // ---- Emission (EmitContext) ----
};

}  // namespace npusim
