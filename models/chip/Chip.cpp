#include "models/chip/Chip.h"

#include <stdexcept>

namespace npusim {

Chip::Chip(sc_core::sc_module_name name, const HardwareConfig& hw, bool functional, InstructionSource& source,
           std::function<void(const InstructionRecord&)> on_complete,
           std::function<std::size_t(const Instruction&)> energy_group)
    : sc_module(name), hw_(hw), energy_group_(std::move(energy_group)) {
  dram_ = std::make_unique<Dram>("dram", hw_.chip.dram, functional, hw_.chip.clock_mhz);
  dram_->register_stats(stats_);
  dram_->trace_to(spans_);
  interconnect_ = std::make_unique<Interconnect>("interconnect", hw_.chip);
  interconnect_->to_dram.bind(dram_->socket);
  if (hw_.chip.cluster_cache.enabled)
    for (std::uint32_t c = 0; c < hw_.chip.clusters; ++c) {
      const std::string cache_name = "cluster" + std::to_string(c) + "_cache";
      caches_.push_back(std::make_unique<ClusterCache>(cache_name.c_str(), c, hw_.chip.cluster_cache, functional));
    }
  auto on_execute = [this](const Instruction& inst) {
    ledger_.switch_to(energy_group_ ? energy_group_(inst) : 0,
                      inst.inputs.empty() ? DType::Int8 : inst.inputs.front().dtype);
  };
  std::vector<Scratchpad*> caches;
  for (auto& cache : caches_) caches.push_back(cache.get());
  for (std::uint32_t i = 0; i < hw_.chip.cores(); ++i) {
    const std::string core_name = "core" + std::to_string(i);
    const std::uint32_t cluster = i / hw_.chip.cores_per_cluster;
    cores_.push_back(std::make_unique<Core>(core_name.c_str(), i, cluster, hw_, functional, scoreboard_, stats_,
                                            *interconnect_, caches, on_complete, spans_, on_execute));
  }
  register_energy();
  controller_ = std::make_unique<InstructionController>(
      "controller", source, scoreboard_, [this](const Instruction& inst) -> Engine& { return engine_for(inst); },
      hw_.core.controller.dispatch_cycles, hw_.core.block<DispatchConfig>(DispatchConfig::kSection), hw_.chip.cores(),
      stats_, spans_);
}

Engine& Chip::engine_for(const Instruction& inst) {
  Engine* engine = cores_.at(inst.core)->engine(inst.engine);
  // The trace reader has already checked the slot exists; reaching here is a bug.
  if (!engine) throw std::logic_error("core " + std::to_string(inst.core) + " has no engine '" + inst.engine + "'");
  return *engine;
}

std::uint8_t* Chip::scratch_bytes(AddressSpace space, std::uint32_t core, std::uint64_t offset) {
  if (space == AddressSpace::Cluster) return cluster_cache_of(core).data(offset);
  return cores_.at(core)->scratchpad(space).data(offset);
}

nlohmann::json Chip::report_sections() const {
  nlohmann::json sections = nlohmann::json::object();
  for (const auto& core : cores_) core->add_report_sections(sections);
  return sections;
}

void Chip::register_energy() {
  for (const auto& core : cores_) core->add_energy(ledger_, stats_);
  for (const auto& cache : caches_) cache->add_energy(ledger_);
  dram_->add_energy(ledger_);
  interconnect_->add_energy(ledger_);
  if (hw_.energy) check_energy_coverage(ledger_, *hw_.energy);
}

EnergyAccount Chip::energy(Cycles total_cycles) {
  ledger_.close();
  if (!hw_.energy) return {};
  return price_energy(ledger_, *hw_.energy, total_cycles, hw_.chip.clock_mhz);
}

RunStats Chip::collect_stats(Cycles total_cycles) const {
  RunStats stats;
  stats.total_cycles = total_cycles;
  stats.clock_mhz = hw_.chip.clock_mhz;
  stats.instructions = controller_->dispatched();
  for (const auto& core : cores_) core->collect(stats.engines, stats.ports);
  for (const auto& cache : caches_) stats.ports.push_back(cache->stats());
  for (auto& link : interconnect_->link_stats()) stats.ports.push_back(link);
  for (auto& channel : dram_->channel_stats()) stats.ports.push_back(channel);
  stats.registered = stats_.values();
  stats.registered_kinds = stats_.kinds();
  stats.registered_catalogue = stats_.catalogue();
  return stats;
}

}  // namespace npusim
