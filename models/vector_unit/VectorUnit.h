#pragma once
#include "models/engine/Engine.h"

namespace npusim {

class Scratchpad;

// The core's vector unit (seed000 §1.3, unit 321): element-wise work on NRAM
// tensors. It streams operands out of NRAM and results back through the NRAM
// port, computing `bytes_per_cycle` bytes a cycle behind a fixed pipeline.
class VectorUnit : public Engine {
 public:
  VectorUnit(sc_core::sc_module_name name, EngineSetup setup, const VectorUnitConfig& cfg);

  void connect(CoreWiring& wiring) override;

 protected:
  Work execute(const Instruction& inst) override;

 private:
  void compute(const Instruction& inst);

  VectorUnitConfig cfg_;
  Scratchpad* nram_ = nullptr;
};

}  // namespace npusim
