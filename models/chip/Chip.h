#pragma once
#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "models/cluster_cache/ClusterCache.h"
#include "models/controller/InstructionController.h"
#include "models/scoreboard/Scoreboard.h"
#include "models/core/Core.h"
#include "models/dram/Dram.h"
#include "models/interconnect/Interconnect.h"

namespace npusim {

// The whole accelerator (seed002 §1.2): clusters × cores, the routing fabric and
// the DRAM channels, plus the controller that feeds the cores' engines.
class Chip : public sc_core::sc_module {
 public:
  // `energy_group` sorts instructions into groups for the energy account (a workload's
  // layers); empty = one group.
  Chip(sc_core::sc_module_name name, const HardwareConfig& hw, bool functional, InstructionSource& source,
       std::function<void(const InstructionRecord&)> on_complete,
       std::function<std::size_t(const Instruction&)> energy_group = {});

  Dram& dram() { return *dram_; }
  Core& core(std::uint32_t index) { return *cores_.at(index); }
  // The cache of a core's cluster; the trace reader only lets "cluster" operands through when it exists.
  Scratchpad& cluster_cache_of(std::uint32_t core) { return *caches_.at(core / hw_.chip.cores_per_cluster); }
  std::uint32_t cores_per_cluster() const { return hw_.chip.cores_per_cluster; }
  // The memory a binding or operand names, seen from `core`.
  std::uint8_t* scratch_bytes(AddressSpace space, std::uint32_t core, std::uint64_t offset);
  InstructionController& controller() { return *controller_; }
  const Scoreboard& scoreboard() const { return scoreboard_; }
  Scoreboard& scoreboard() { return scoreboard_; }
  // Where blocks inside engines report their busy spans (timeline tracks).
  BlockSpans& block_spans() { return spans_; }

  RunStats collect_stats(Cycles total_cycles) const;
  // The run priced with the config's energy table (docs/energy.md); call once, after the run.
  EnergyAccount energy(Cycles total_cycles);
  // Engine-specific report sections of every core, for ReportContext::extra.
  nlohmann::json report_sections() const;

 private:
  Engine& engine_for(const Instruction& inst);
  void register_energy();

  HardwareConfig hw_;
  Scoreboard scoreboard_;
  StatRegistry stats_;  // counters the blocks registered for themselves
  EnergyLedger ledger_;  // those counters and the memories' traffic, per instruction group
  std::function<std::size_t(const Instruction&)> energy_group_;
  BlockSpans spans_;
  std::unique_ptr<Dram> dram_;
  std::unique_ptr<Interconnect> interconnect_;
  std::vector<std::unique_ptr<ClusterCache>> caches_;  // one per cluster, when enabled
  std::vector<std::unique_ptr<Core>> cores_;
  std::unique_ptr<InstructionController> controller_;
};

}  // namespace npusim
