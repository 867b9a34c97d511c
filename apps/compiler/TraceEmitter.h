#pragma once
#include <cstdint>

#include "apps/frontend/workload/Workload.h"
#include "apps/compiler/emit/EmitContext.h"
#include "apps/compiler/planning/SplitPlanner.h"
#include "models/controller/InstructionSource.h"
#include "sim/config/HardwareConfig.h"
#include "sim/trace/TraceHeader.h"

namespace npusim {

// Compiles a workload into instructions lazily: all planning (tiling, DRAM map,
// bindings) happens in the constructor, and `next` then produces one band of work
// per core at a time, so memory does not grow with the number of instructions.
// Ids are 0, 1, 2, ... and each layer's instructions form one contiguous id range.
// Each layer's tiles go to the lowering its tiling names (emit/Lowering.h); the shared
// state and the transport they use are the EmitContext's.
class TraceEmitter : public InstructionSource {
 public:
  TraceEmitter(const Workload& workload, const HardwareConfig& hw, const SplitOptions& split = {});

  bool next(Instruction& out) override;

  const Workload& workload() const { return ctx_.workload(); }
  const std::vector<CompiledLayer>& layers() const { return ctx_.layers(); }
  // A region per tensor did not fit: dead tensors' DRAM holds later ones (emit/TensorPlacement.cpp).
  bool reuses_dram() const { return ctx_.dram().reusing(); }
  // Functional bindings: the network input and weights (random or .npy) in, every layer out.
  const TraceHeader& header() const { return ctx_.header(); }
  // Layer that emitted instruction `id` (which must have been emitted already).
  std::size_t layer_of(std::uint64_t id) const { return ctx_.layer_of(id); }
  const LayerTraffic& traffic(std::size_t layer) const { return ctx_.traffic(layer); }
  std::string weight_sharing(const CompiledLayer& c) const { return ctx_.weight_sharing(c); }
  // Whether instruction `id` moves or adds partial sums of a model-ci reduction.
  bool in_reduction(std::uint64_t id) const { return ctx_.in_reduction(id); }

 private:
  void start_layer();
  void emit_step();

  EmitContext ctx_;
  std::uint64_t steps_ = 0;
  bool layer_started_ = false;
};

}  // namespace npusim
