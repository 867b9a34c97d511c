#include "models/chip/Chip.h"

#include <stdexcept>

namespace npusim {

Chip::Chip(sc_core::sc_module_name name, const HardwareConfig& hw, bool functional, InstructionSource& source,
           std::function<void(const InstructionRecord&)> on_complete)
    : sc_module(name), hw_(hw) {
  dram_ = std::make_unique<Dram>("dram", hw_.chip.dram, functional);
  interconnect_ = std::make_unique<Interconnect>("interconnect", hw_.chip);
  interconnect_->to_dram.bind(dram_->socket);
  for (std::uint32_t i = 0; i < hw_.chip.cores(); ++i) {
    const std::string core_name = "core" + std::to_string(i);
    cores_.push_back(std::make_unique<Core>(core_name.c_str(), i, i / hw_.chip.cores_per_cluster, hw_, functional,
                                            scoreboard_, *interconnect_, on_complete));
  }
  controller_ = std::make_unique<InstructionController>(
      "controller", source, scoreboard_, [this](const Instruction& inst) -> Engine& { return engine_for(inst); },
      hw_.core.controller.dispatch_cycles);
}

Engine& Chip::engine_for(const Instruction& inst) {
  Engine* engine = cores_.at(inst.core)->engine(inst.engine);
  // The trace reader has already checked the slot exists; reaching here is a bug.
  if (!engine) throw std::logic_error("core " + std::to_string(inst.core) + " has no engine '" + inst.engine + "'");
  return *engine;
}

nlohmann::json Chip::report_sections() const {
  nlohmann::json sections = nlohmann::json::object();
  for (const auto& core : cores_) core->add_report_sections(sections);
  return sections;
}

RunStats Chip::collect_stats(Cycles total_cycles) const {
  RunStats stats;
  stats.total_cycles = total_cycles;
  stats.clock_mhz = hw_.chip.clock_mhz;
  stats.instructions = controller_->dispatched();
  for (const auto& core : cores_) core->collect(stats.engines, stats.ports);
  for (auto& channel : dram_->channel_stats()) stats.ports.push_back(channel);
  return stats;
}

}  // namespace npusim
