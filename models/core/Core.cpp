#include "models/core/Core.h"

#include "models/engine/EngineRegistry.h"

namespace npusim {

Core::Core(sc_core::sc_module_name name, std::uint32_t index, std::uint32_t cluster, const HardwareConfig& hw,
           bool functional, Scoreboard& scoreboard, StatRegistry& stats, Interconnect& interconnect,
           Scratchpad* cluster_cache, const std::function<void(const InstructionRecord&)>& on_complete)
    : sc_module(name) {
  const std::string prefix = "core" + std::to_string(index) + ".";
  const CoreConfig& kind_config = hw.core_of(index);
  nram_ = std::make_unique<Scratchpad>("nram", prefix + "nram", kind_config.nram, functional);
  wram_ = std::make_unique<Scratchpad>("wram", prefix + "wram", kind_config.wram, functional);
  CoreWiring wiring{*nram_, *wram_, interconnect, cluster, cluster_cache};
  for (const std::string& kind : kind_config.engines) {
    EngineSetup setup;
    setup.core = index;
    setup.hardware = &hw;
    setup.core_config = &kind_config;
    setup.functional = functional;
    setup.scoreboard = &scoreboard;
    setup.stats = &stats;
    setup.on_complete = on_complete;
    engines_.push_back(engine_registry().create(kind, kind.c_str(), std::move(setup)));
    engines_.back()->connect(wiring);
  }
}

Engine* Core::engine(const std::string& kind) {
  for (auto& e : engines_)
    if (e->slot() == kind) return e.get();
  return nullptr;
}

void Core::add_report_sections(nlohmann::json& sections) const {
  for (const auto& e : engines_) e->add_report_sections(sections);
}

void Core::collect(std::vector<EngineStats>& engines, std::vector<PortStats>& ports) const {
  for (const auto& e : engines_) {
    engines.push_back(e->stats());
    for (auto& p : e->port_stats()) ports.push_back(p);
  }
  ports.push_back(nram_->stats());
  ports.push_back(wram_->stats());
}

}  // namespace npusim
