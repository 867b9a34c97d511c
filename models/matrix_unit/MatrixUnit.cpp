#include "models/matrix_unit/MatrixUnit.h"

#include <algorithm>

#include "models/kernel/SimTime.h"
#include "models/matrix_unit/WfoldDatapath.h"
#include "models/scratchpad/Scratchpad.h"

namespace npusim {

namespace {
std::string port_name(const EngineSetup& s, const char* bus) {
  return "core" + std::to_string(s.core) + ".matrix." + bus;
}

std::uint32_t param_at(const nlohmann::json& params, const char* key, std::size_t i, std::uint32_t fallback) {
  if (!params.contains(key)) return fallback;
  return params.at(key).at(i).get<std::uint32_t>();
}

// Spreads `total` over `parts` pieces; piece i gets its fair share (no loss).
std::uint64_t share(std::uint64_t total, std::uint64_t parts, std::uint64_t i) {
  return total * (i + 1) / parts - total * i / parts;
}
}  // namespace

ConvShape conv_shape_of(const Instruction& inst) {
  const auto& in = inst.inputs.at(0).shape;
  const auto& w = inst.inputs.at(1).shape;
  ConvShape s;
  s.n = static_cast<std::uint32_t>(in.at(0));
  s.hi = static_cast<std::uint32_t>(in.at(1));
  s.wi = static_cast<std::uint32_t>(in.at(2));
  s.ci = static_cast<std::uint32_t>(in.at(3));
  s.co = static_cast<std::uint32_t>(w.at(0));
  s.kh = static_cast<std::uint32_t>(w.at(1));
  s.kw = static_cast<std::uint32_t>(w.at(2));
  s.sh = param_at(inst.params, "stride", 0, 1);
  s.sw = param_at(inst.params, "stride", 1, 1);
  s.pad_top = param_at(inst.params, "padding", 0, 0);
  s.pad_bottom = param_at(inst.params, "padding", 1, 0);
  s.pad_left = param_at(inst.params, "padding", 2, 0);
  s.pad_right = param_at(inst.params, "padding", 3, 0);
  s.element_bytes = static_cast<std::uint32_t>(dtype_size(inst.inputs.at(0).dtype));
  return s;
}

MatrixUnit::MatrixUnit(sc_core::sc_module_name name, EngineSetup setup, const MatrixUnitConfig& cfg)
    : Engine(name, setup, cfg.queue_depth),
      cfg_(cfg),
      broadcast_bus_(port_name(setup, "broadcast_bus"), "bus", cfg.broadcast_bus.bytes_per_cycle),
      // Every slave has its own region of the second storage circuit (seed000 ¶72),
      // so the distribution paths of all slaves run side by side.
      distribution_bus_(port_name(setup, "distribution_bus"), "bus",
                        cfg.distribution_bus.bytes_per_cycle * cfg.slaves) {}

void MatrixUnit::connect(CoreWiring& wiring) {
  nram_ = &wiring.nram;
  wram_ = &wiring.wram;
}

std::vector<PortStats> MatrixUnit::port_stats() const { return {broadcast_bus_.stats(), distribution_bus_.stats()}; }

const WfoldPlan& MatrixUnit::plan_for(const ConvShape& layer) {
  auto& slot = plans_[layer.to_string()];
  if (!slot) slot = std::make_unique<WfoldPlan>(plan_wfold_conv(cfg_, layer));
  return *slot;
}

Engine::Work MatrixUnit::execute(const Instruction& inst) {
  const WfoldPlan& plan = plan_for(conv_shape_of(inst));
  const Cycles done = stream_tiles(plan, inst);
  if (setup().functional) compute(plan, inst);
  wait_until(done);
  return {plan.broadcast_bytes + plan.distribution_bytes + plan.output_bytes, plan.macs.useful};
}

// The plan gives the contention-free time of the layer; here it is walked tile by
// tile while the tile's data rows, weight rows and results are booked on the
// shared ports. A tile ends when both its compute time and its traffic are done,
// so a busy NRAM/WRAM port or bus stretches the layer.
Cycles MatrixUnit::stream_tiles(const WfoldPlan& plan, const Instruction& inst) {
  const Cycles start = now_cycles();
  const std::uint64_t tiles = std::max<std::uint64_t>(1, plan.tiles);
  const TensorOperand& ifmap = inst.inputs.at(0);
  const TensorOperand& ofmap = inst.outputs.at(0);
  Cycles t = start, written = start;
  for (std::uint64_t i = 0; i < tiles; ++i) {
    const std::uint64_t rows = share(plan.broadcast_bytes, tiles, i);
    const std::uint64_t wrows = share(plan.distribution_bytes, tiles, i);
    const Cycles now = now_cycles();
    Cycles inputs = std::max(nram_->access(now, t, ifmap.offset, rows, false), broadcast_bus_.reserve(now, t, rows, false));
    // Each slave reads its own WRAM region (seed000 ¶72) over its own link, so weight
    // distribution is limited by the distribution paths, not by the DMA-facing WRAM port.
    Cycles weights_in = distribution_bus_.reserve(now, t, wrows, false);
    const Cycles compute_end = start + plan.cycles.total * (i + 1) / tiles;
    t = std::max({compute_end, inputs, weights_in, t});
    written = std::max(written, nram_->access(now, t, ofmap.offset, share(plan.output_bytes, tiles, i), true));
  }
  return std::max(t, written);
}

void MatrixUnit::compute(const WfoldPlan& plan, const Instruction& inst) {
  const std::uint8_t* ifmap = nram_->data(inst.inputs.at(0).offset);
  const std::uint8_t* weights = wram_->data(inst.inputs.at(1).offset);
  std::uint8_t* out = nram_->data(inst.outputs.at(0).offset);
  if (inst.inputs.at(0).dtype == DType::Float32)
    run_wfold_conv(plan, plan.layer, reinterpret_cast<const float*>(ifmap), reinterpret_cast<const float*>(weights),
                   reinterpret_cast<float*>(out));
  else
    run_wfold_conv(plan, plan.layer, reinterpret_cast<const std::int8_t*>(ifmap),
                   reinterpret_cast<const std::int8_t*>(weights), reinterpret_cast<std::int32_t*>(out));
}

}  // namespace npusim
