#pragma once
#include "models/engine/Engine.h"
#include "models/vector_unit/VectorKernels.h"
#include "models/vector_unit/VectorUnitConfig.h"

namespace npusim {

class Scratchpad;

// Window shape of a pool / dwconv instruction, and its taps per output element (0 otherwise).
ChannelWindow window_of(const Instruction& inst);
std::uint64_t window_taps(const Instruction& inst);

// The core's vector unit (seed000 §1.3, unit 321): element-wise work on NRAM
// tensors. It streams operands out of NRAM and results back through the NRAM
// port, computing `bytes_per_cycle` bytes a cycle behind a fixed pipeline.
class VectorUnit : public Engine {
 public:
  VectorUnit(sc_core::sc_module_name name, EngineSetup setup, const VectorUnitConfig& cfg);

  void connect(CoreWiring& wiring) override;

 protected:
  Work execute(const Instruction& inst) override;
  std::vector<ReadStep> read_steps(const Instruction& inst) override;

 private:
  void compute(const Instruction& inst);
  void compute_row_op(const Instruction& inst, const std::int8_t* src, std::int8_t* dst);
  void compute_activation(const Instruction& inst, const std::int8_t* src, std::int8_t* dst);  // and mul, mask
  std::uint64_t row_op_lane_ops(const Instruction& inst) const;
  std::vector<std::uint64_t> chunk_bounds(const TensorOperand& out) const;  // output byte offsets

  VectorUnitConfig cfg_;
  std::uint64_t* lane_ops_ = nullptr;  // registered counter
  Scratchpad* nram_ = nullptr;
};

}  // namespace npusim
