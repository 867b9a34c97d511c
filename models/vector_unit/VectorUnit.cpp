#include "models/vector_unit/VectorUnit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/kernel/SimTime.h"
#include "models/scratchpad/Scratchpad.h"
#include "models/vector_unit/VectorKernels.h"

namespace npusim {

VectorUnit::VectorUnit(sc_core::sc_module_name name, EngineSetup setup, const VectorUnitConfig& cfg)
    : Engine(name, std::move(setup), cfg.queue_depth), cfg_(cfg) {}

void VectorUnit::connect(CoreWiring& wiring) { nram_ = &wiring.nram; }

Engine::Work VectorUnit::execute(const Instruction& inst) {
  const Cycles now = now_cycles();
  std::uint64_t bytes_in = 0;
  Cycles operands_ready = now;
  for (const auto& in : inst.inputs) {
    operands_ready = std::max(operands_ready, nram_->access(now, now, in.offset, in.bytes(), false));
    bytes_in += in.bytes();
  }
  const TensorOperand& out = inst.outputs.at(0);
  const Cycles stream = static_cast<Cycles>(std::ceil(double(out.bytes()) / cfg_.bytes_per_cycle));
  // Results start leaving the pipeline after its latency and stream back to NRAM.
  const Cycles written = nram_->access(now, now + cfg_.pipeline_latency, out.offset, out.bytes(), true);
  const Cycles done = std::max({operands_ready, now + stream + cfg_.pipeline_latency, written});
  if (setup().functional) compute(inst);
  wait_until(done);
  return {bytes_in + out.bytes(), 0};
}

void VectorUnit::compute(const Instruction& inst) {
  const TensorOperand& out = inst.outputs.at(0);
  const std::uint8_t* a = nram_->data(inst.inputs.at(0).offset);
  std::uint8_t* dst = nram_->data(out.offset);
  if (inst.op == "relu") {
    vector_relu(out.dtype, a, dst, out.elements());
  } else if (inst.op == "add") {
    vector_add(out.dtype, a, nram_->data(inst.inputs.at(1).offset), dst, out.elements());
  } else {
    throw std::logic_error("vector unit has no operation '" + inst.op + "'");
  }
}

}  // namespace npusim
