#include "models/vector_unit/VectorUnit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/kernel/SimTime.h"
#include "models/scratchpad/Scratchpad.h"
#include "models/vector_unit/VectorKernels.h"

namespace npusim {

namespace {

std::uint32_t param_at(const nlohmann::json& params, const char* key, std::size_t i, std::uint32_t fallback) {
  return params.contains(key) ? params.at(key).at(i).get<std::uint32_t>() : fallback;
}

}  // namespace

// Window of a pool or dwconv instruction; the kernel size of dwconv comes from its weights [kh kw c].
WindowGeometry window_of(const Instruction& inst) {
  const auto& x = inst.inputs.at(0).shape;
  WindowGeometry g;
  g.n = std::uint32_t(x.at(0));
  g.hi = std::uint32_t(x.at(1));
  g.wi = std::uint32_t(x.at(2));
  g.c = std::uint32_t(x.at(3));
  const bool weighted = inst.inputs.size() > 1;
  g.kh = weighted ? std::uint32_t(inst.inputs[1].shape.at(0)) : param_at(inst.params, "kernel", 0, 1);
  g.kw = weighted ? std::uint32_t(inst.inputs[1].shape.at(1)) : param_at(inst.params, "kernel", 1, 1);
  g.sh = param_at(inst.params, "stride", 0, 1);
  g.sw = param_at(inst.params, "stride", 1, 1);
  g.pad_top = param_at(inst.params, "padding", 0, 0);
  g.pad_bottom = param_at(inst.params, "padding", 1, 0);
  g.pad_left = param_at(inst.params, "padding", 2, 0);
  g.pad_right = param_at(inst.params, "padding", 3, 0);
  return g;
}

std::uint64_t window_taps(const Instruction& inst) {
  if (inst.op != "pool" && inst.op != "dwconv") return 0;
  const WindowGeometry g = window_of(inst);
  return std::uint64_t(g.kh) * g.kw;
}

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
  // One int8 lane per byte of width: window ops (pool, depthwise) cost a lane-op per tap.
  std::uint64_t lane_ops = out.bytes();
  for (const auto& in : inst.inputs) lane_ops = std::max(lane_ops, in.bytes());
  const std::uint64_t window_ops = window_taps(inst) * out.elements();
  lane_ops = std::max(lane_ops, window_ops);
  const Cycles stream = static_cast<Cycles>(std::ceil(double(lane_ops) / cfg_.bytes_per_cycle));
  // Results start leaving the pipeline after its latency and stream back to NRAM.
  const Cycles written = nram_->access(now, now + cfg_.pipeline_latency, out.offset, out.bytes(), true);
  const Cycles done = std::max({operands_ready, now + stream + cfg_.pipeline_latency, written});
  if (setup().functional) compute(inst);
  wait_until(done);
  return {bytes_in + out.bytes(), inst.op == "dwconv" ? window_ops : 0};
}

void VectorUnit::compute(const Instruction& inst) {
  const TensorOperand& out = inst.outputs.at(0);
  const std::uint8_t* a = nram_->data(inst.inputs.at(0).offset);
  std::uint8_t* dst = nram_->data(out.offset);
  if (inst.op == "relu") {
    vector_relu(out.dtype, a, dst, out.elements());
  } else if (inst.op == "add") {
    vector_add(out.dtype, a, nram_->data(inst.inputs.at(1).offset), dst, out.elements());
  } else if (inst.op == "requant") {
    vector_requant(a, dst, out.elements(), inst.params.value("shift", 0u), inst.params.value("relu", false));
  } else if (inst.op == "pool") {
    vector_pool(window_of(inst), inst.params.value("mode", std::string("max")) == "max", a, dst);
  } else if (inst.op == "dwconv") {
    vector_depthwise(window_of(inst), a, nram_->data(inst.inputs.at(1).offset), dst);
  } else {
    throw std::logic_error("vector unit has no operation '" + inst.op + "'");
  }
}

}  // namespace npusim
