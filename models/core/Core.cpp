#include "models/core/Core.h"

#include <stdexcept>

#include "models/engine/EngineRegistry.h"

namespace npusim {

Core::Core(sc_core::sc_module_name name, std::uint32_t index, std::uint32_t cluster, const HardwareConfig& hw,
           bool functional, Scoreboard& scoreboard, StatRegistry& stats, Interconnect& interconnect,
           const std::vector<Scratchpad*>& cluster_caches, const std::function<void(const InstructionRecord&)>& on_complete,
           const BlockSpans& spans, const std::function<void(const Instruction&)>& on_execute)
    : sc_module(name), config_(hw.core_of(index)) {
  const std::string prefix = "core" + std::to_string(index) + ".";
  const CoreConfig& kind_config = hw.core_of(index);
  nram_ = std::make_unique<Scratchpad>("nram", prefix + "nram", kind_config.nram, functional);
  wram_ = std::make_unique<Scratchpad>("wram", prefix + "wram", kind_config.wram, functional);
  nram_->register_stats(stats);  // banked scratchpads only
  wram_->register_stats(stats);
  nram_->trace_to(spans);
  wram_->trace_to(spans);
  if (kind_config.register_file.capacity_bytes > 0)
    register_file_ = std::make_unique<Scratchpad>("register_file", prefix + "register_file", kind_config.register_file,
                                                  functional, "register_file");
  Scratchpad* own_cache = cluster_caches.empty() ? nullptr : cluster_caches.at(cluster);
  CoreWiring wiring{*nram_, *wram_, interconnect, cluster, own_cache, cluster_caches, register_file_.get(),
                    [this](const std::string& slot) { return engine(slot); }};
  for (const std::string& kind : kind_config.engines) {
    EngineSetup setup;
    setup.core = index;
    setup.hardware = &hw;
    setup.core_config = &kind_config;
    setup.functional = functional;
    setup.scoreboard = &scoreboard;
    setup.stats = &stats;
    setup.on_complete = on_complete;
    setup.on_execute = on_execute;
    setup.spans = &spans;
    engines_.push_back(engine_registry().create(kind, kind.c_str(), std::move(setup)));
  }
  // Every engine exists before any connects, so paired engines can find each other.
  for (auto& e : engines_) e->connect(wiring);
}

Scratchpad& Core::scratchpad(AddressSpace space) {
  if (space == AddressSpace::Rf && register_file_) return *register_file_;
  return space == AddressSpace::Wram ? *wram_ : *nram_;
}

Engine* Core::engine(const std::string& kind) {
  for (auto& e : engines_)
    if (e->slot() == kind) return e.get();
  return nullptr;
}

void Core::add_report_sections(nlohmann::json& sections) const {
  for (const auto& e : engines_) e->add_report_sections(sections);
}

void Core::add_energy(EnergyLedger& ledger, const StatRegistry& stats) const {
  for (const auto& e : engines_) {
    const EngineKind* kind = engine_registry().find(e->slot());
    if (!kind || !kind->energy) throw std::logic_error("engine kind '" + e->slot() + "' states no energy");
    const EngineEnergy energy = kind->energy(config_);
    const std::string& name = e->stats().name;
    const std::size_t c = ledger.add_component({name, e->slot(), false, energy.parts});
    for (const CounterAction& a : energy.actions) {
      const auto groups = stats.groups_within(name, a.group_kind);
      for (const StatGroup* g : groups) {
        const std::uint64_t* count = g->find(a.counter);
        if (!count) throw std::logic_error(g->owner() + " has no counter '" + a.counter + "' to price");
        ledger.add_source(c, a.action, count, g->owner() + "." + a.counter);
      }
      if (groups.empty()) throw std::logic_error(name + " has no '" + a.group_kind + "' counters to price");
    }
  }
  nram_->add_energy(ledger);
  wram_->add_energy(ledger);
  if (register_file_) register_file_->add_energy(ledger);
}

void Core::collect(std::vector<EngineStats>& engines, std::vector<PortStats>& ports) const {
  for (const auto& e : engines_) {
    engines.push_back(e->stats());
    for (auto& p : e->port_stats()) ports.push_back(p);
  }
  ports.push_back(nram_->stats());
  ports.push_back(wram_->stats());
  if (register_file_) ports.push_back(register_file_->stats());
}

}  // namespace npusim
