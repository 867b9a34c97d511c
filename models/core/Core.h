#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "models/engine/Engine.h"
#include "models/scratchpad/Scratchpad.h"

namespace npusim {

// One processor core (seed000 Fig. 3): NRAM, WRAM and the engine slots its core
// kind lists, each built through the engine registry and wired to the core's
// memories and to the chip interconnect.
class Core : public sc_core::sc_module {
 public:
  Core(sc_core::sc_module_name name, std::uint32_t index, std::uint32_t cluster, const HardwareConfig& hw,
       bool functional, Scoreboard& scoreboard, StatRegistry& stats, Interconnect& interconnect,
       const std::vector<Scratchpad*>& cluster_caches, const std::function<void(const InstructionRecord&)>& on_complete,
       const BlockSpans& spans, const std::function<void(const Instruction&)>& on_execute);

  // nullptr when the core has no such engine slot.
  Engine* engine(const std::string& kind);
  Scratchpad& nram() { return *nram_; }
  Scratchpad& wram() { return *wram_; }
  Scratchpad& scratchpad(AddressSpace space);

  void collect(std::vector<EngineStats>& engines, std::vector<PortStats>& ports) const;
  void add_report_sections(nlohmann::json& sections) const;
  // Its engines (as each kind declares its energy) and memories, into the chip's ledger.
  void add_energy(EnergyLedger& ledger, const StatRegistry& stats) const;

 private:
  const CoreConfig& config_;
  std::unique_ptr<Scratchpad> nram_;
  std::unique_ptr<Scratchpad> wram_;
  std::unique_ptr<Scratchpad> register_file_;  // null unless the kind has one
  std::vector<std::unique_ptr<Engine>> engines_;  // config order
};

}  // namespace npusim
