#include "models/shader_core/ShaderCore.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/engine/EngineRegistry.h"
#include "models/fetch_ml/TileParams.h"
#include "models/kernel/SimTime.h"
#include "models/scratchpad/Scratchpad.h"
#include "models/shader_core/ShaderMapping.h"
#include "models/shader_core/ShaderOps.h"
#include "sim/trace/OpChecks.h"

namespace npusim {

ShaderCore::ShaderCore(sc_core::sc_module_name name, EngineSetup setup, const ShaderCoreConfig& cfg)
    : Engine(name, std::move(setup), cfg.queue_depth), cfg_(cfg), datapath_("datapath") {
  StatGroup& g = stat_group();
  counters_.useful_macs = &g.counter("useful_macs", "MACs", "multiply-accumulates of the tiles");
  counters_.issued_macs = &g.counter("issued_macs", "MACs", "lane slots issued: cycles x lanes x MACs per lane");
  counters_.mac_cycles = &g.counter("mac_cycles", "cycles", "datapath cycles of the tiles, pipeline fill included");
  counters_.rf_read_bytes = &g.counter("rf_read_bytes", "bytes", "register-file bytes the datapath read");
  counters_.rf_result_bytes = &g.counter("rf_result_bytes", "bytes", "result bytes written to the register file");
}

void ShaderCore::connect(CoreWiring& wiring) {
  register_file_ = wiring.register_file;
  state_machine_ = dynamic_cast<const FetchMlStateMachine*>(wiring.engine("fetch_ml"));
  if (!register_file_ || !state_machine_)  // the config checks make this unreachable
    throw std::logic_error("shader core without a register file or a fetch_ml state machine");
}

const FetchedTile& ShaderCore::fetched(const Instruction& inst, std::size_t input) const {
  const TensorOperand& t = inst.inputs.at(input);
  const FetchedTile* tile = state_machine_->fetched_at(t.offset);
  if (!tile || tile->bytes != t.bytes())
    fail_instruction(inst, fmt::format("inputs[{}] reads rf [{}, {}), which no fetch_ml filled with a tile of that size",
                                       input, t.offset, t.end()));
  return *tile;
}

Engine::Work ShaderCore::execute(const Instruction& inst) {
  const FetchedTile& image = fetched(inst, 0);
  fetched(inst, 1);
  MlTile tile;
  read_ml_tile(inst.params, tile);
  const TensorOperand& ifm = inst.inputs.at(0);
  const TensorOperand& out = inst.outputs.at(0);
  const ConvShape& g = image.layer;
  const std::uint64_t K = std::uint64_t(g.kh) * g.kw * g.ci;
  if (inst.inputs.at(1).shape.at(1) != K)
    fail_instruction(inst, fmt::format("the weights have K = {} but the image tile was fetched for K = kh*kw*ci = {}",
                                       inst.inputs.at(1).shape.at(1), K));

  const Cycles start = now_cycles();
  const std::uint64_t cycles = shader_tile_cycles(cfg_, tile.positions.count, tile.filters, K);
  const std::uint64_t reads = shader_tile_rf_reads(cfg_, g, tile.positions, tile.filters, image.compact);
  // Reads stream while the lanes work: the register-file port bounds the tile from below.
  const Cycles read_done = register_file_->access(start, start, ifm.offset, reads, false);
  const Cycles computed = std::max(start + cycles, read_done);
  const Cycles done = register_file_->access(now_cycles(), computed, out.offset, out.bytes(), true);
  if (setup().functional) {
    MatmulOperands m{&image, tile.positions, tile.filters, register_file_->data(ifm.offset),
                     register_file_->data(inst.inputs.at(1).offset), register_file_->data(out.offset)};
    const int shift = inst.params.contains("shift") ? inst.params["shift"].get<int>() : -1;
    datapath_.multiply(m, ifm.dtype == DType::Float32, shift, inst.params.value("relu", false), requant_bias(inst));
  }
  const std::uint64_t macs = tile.positions.count * tile.filters * K;
  *counters_.useful_macs += macs;
  *counters_.issued_macs += (cycles - cfg_.pipeline_latency) * cfg_.lanes * cfg_.macs_per_lane_per_cycle;
  *counters_.mac_cycles += cycles;
  *counters_.rf_read_bytes += reads;
  *counters_.rf_result_bytes += out.bytes();
  wait_until(done);
  return {reads + out.bytes(), macs};
}

namespace {
EngineKind shader_core_kind() {
  EngineKind kind =
      engine_kind_of<ShaderCore, ShaderCoreConfig>("shader", shader_core_config_section(), shader_core_ops());
  kind.peak_macs_per_cycle = [](const CoreConfig& core) {
    return shader_peak_macs_per_cycle(core.block<ShaderCoreConfig>(ShaderCoreConfig::kSection));
  };
  // Register-file reads and writes are priced at the register file's port.
  kind.energy = [](const CoreConfig& core) {
    const ShaderCoreConfig& s = core.block<ShaderCoreConfig>(ShaderCoreConfig::kSection);
    EngineEnergy e;
    e.actions = {{"shader", "issued_macs", {"mac", ""}}};
    e.parts = {{"mac", double(s.lanes) * s.macs_per_lane_per_cycle}};
    return e;
  };
  return kind;
}
}  // namespace

}  // namespace npusim

NPUSIM_REGISTER_ENGINE(npusim::shader_core_kind())
