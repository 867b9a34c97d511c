#include "models/core/Core.h"

#include "models/engine/EngineRegistry.h"

namespace npusim {

Core::Core(sc_core::sc_module_name name, std::uint32_t index, std::uint32_t cluster, const HardwareConfig& hw,
           bool functional, Scoreboard& scoreboard, StatRegistry& stats, Interconnect& interconnect,
           const std::vector<Scratchpad*>& cluster_caches, const std::function<void(const InstructionRecord&)>& on_complete,
           const BlockSpans& spans)
    : sc_module(name) {
  const std::string prefix = "core" + std::to_string(index) + ".";
  const CoreConfig& kind_config = hw.core_of(index);
  nram_ = std::make_unique<Scratchpad>("nram", prefix + "nram", kind_config.nram, functional);
  wram_ = std::make_unique<Scratchpad>("wram", prefix + "wram", kind_config.wram, functional);
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
