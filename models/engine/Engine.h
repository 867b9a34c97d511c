#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "models/scoreboard/Progress.h"
#include "sim/config/HardwareConfig.h"
#include "sim/report/RunStats.h"
#include "sim/report/BlockSpans.h"
#include "sim/stats/StatRegistry.h"
#include "sim/trace/Instruction.h"

namespace npusim {

class Scoreboard;
class Scratchpad;
class Interconnect;
class Engine;

// What an engine is connected to inside its core.
struct CoreWiring {
  Scratchpad& nram;
  Scratchpad& wram;
  Interconnect& interconnect;
  std::uint32_t cluster;
  Scratchpad* cluster_cache = nullptr;  // the cluster's off-core cache, when the chip has one
  std::vector<Scratchpad*> cluster_caches;  // every cluster's, by cluster (empty without caches)
  Scratchpad* register_file = nullptr;  // when the core kind has one (shader cores)
  // Another engine slot of the same core, or nullptr: blocks that work as a pair
  // (the shader core and its fetch_ml state machine) find each other here.
  std::function<Engine*(const std::string& slot)> engine;
};

// Everything an engine needs to be built.
struct EngineSetup {
  std::string kind;        // registered engine name: "load", "vector", ...
  std::uint32_t core = 0;
  const HardwareConfig* hardware = nullptr;
  const CoreConfig* core_config = nullptr;  // this core's kind: memories, engines, engine sections
  bool functional = false;
  Scoreboard* scoreboard = nullptr;
  StatRegistry* stats = nullptr;  // where the engine registers its own counters (may be null in unit tests)
  std::function<void(const InstructionRecord&)> on_complete;  // may be empty
  // Called as the engine starts executing an instruction (energy ledger); may be empty.
  std::function<void(const Instruction&)> on_execute;
  const BlockSpans* spans = nullptr;  // timeline tracks of blocks inside the engine (may be null)
};

// Bad input found only while an instruction runs (it disagrees with state set by
// earlier ones): an InputError naming the trace line, the op and the instruction id.
[[noreturn]] void fail_instruction(const Instruction& inst, const std::string& reason);

// One engine slot of a core (load DMA, store DMA, vector unit, matrix unit ...).
// The controller pushes instructions into its bounded queue; one SC_THREAD starts
// them in order, holding each at the head until its producers release its first
// step (full, two-phase or staged, seed004; see models/scoreboard/README.md).
// Subclasses only say what executing one instruction costs, by advancing
// simulated time in `execute` — nothing here ticks every cycle.
//
// Up to `max_in_flight` instructions may run at once (a DMA with several
// outstanding transfers): `execute` then books the work and publishes without
// waiting, and a second SC_THREAD retires instructions in program order when
// their published end has passed. Each keeps its queue slot until it retires.
class Engine : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Engine);
  Engine(sc_core::sc_module_name name, EngineSetup setup, std::uint32_t queue_depth,
         std::uint32_t max_in_flight = 1);

  bool has_room() const { return queue_.size() < queue_depth_; }
  void push(Instruction inst, Cycles dispatched_at);
  const sc_core::sc_event& room_freed() const { return room_freed_; }

  // This engine's core and cluster, for telling which scratchpad or cluster cache an operand names.
  Viewpoint viewpoint() const {
    return {setup_.core, setup_.core / setup_.hardware->chip.cores_per_cluster};
  }
  // Binds the engine to its core's memories; called once while the core is built.
  virtual void connect(CoreWiring& wiring) = 0;
  virtual std::vector<PortStats> port_stats() const { return {}; }
  // Engine-specific report sections (e.g. the matrix unit's per-layer rows),
  // appended under top-level keys of report.json.
  virtual void add_report_sections(nlohmann::json& sections) const {}
  EngineStats stats() const { return stats_; }
  // The block's state after its last instruction, shown on the timeline; empty when it has none.
  virtual std::string state_label() const { return {}; }
  const std::string& slot() const { return setup_.kind; }

 protected:
  struct Work {
    std::uint64_t bytes = 0;
    std::uint64_t macs = 0;
    CacheUse cache = {};
    bool launched_by_hardware = false;
  };
  // Performs one instruction: moves data (functional runs) and either waits for
  // as many cycles as the hardware would take or, having published when it will
  // be done, returns at once (the base class waits or overlaps the next one).
  // Every counter and port booking of the instruction happens before its first
  // wait (or its return): the energy ledger relies on it.
  virtual Work execute(const Instruction& inst) = 0;

  const EngineSetup& setup() const { return setup_; }
  // This engine's counters ("core0.matrix"): register in the constructor, add while running.
  StatGroup& stat_group() { return *stat_group_; }

  // The steps `execute` will take and what each reads, in order; the base class
  // uses them to release each step as soon as its producers allow (seed004).
  // The default is one step reading every input whole.
  virtual std::vector<ReadStep> read_steps(const Instruction& inst);
  // Earliest cycle step `i` may start reading (0 when unconstrained).
  Cycles step_gate(std::size_t i) const { return i < gates_.size() ? gates_[i] : gates_.back(); }

  // What `execute` worked out before it waits: when each step read its inputs,
  // when each prefix of the output became final, when the source and bus were
  // let go (two-phase end flag) and the end.
  struct Schedule {
    std::vector<std::pair<Cycles, Cycles>> reads;  // per step: read start, read done
    std::vector<ProgressPoint> written;
    Cycles release = 0;
    Cycles done = 0;
    std::uint64_t tile_bytes = 0;
  };
  // Call from `execute` before waiting, so consumers can start on finished stages.
  void publish(const Instruction& inst, Schedule schedule);

 private:
  struct Queued {
    Instruction inst;
    Cycles dispatched_at;
  };
  void run();
  void retire();
  void serve_queue();
  Cycles hold_for_producers(const Instruction& inst, Cycles at_head);
  InstructionRecord start_next(const Queued& next, Cycles at_head);
  std::uint32_t free_lane() const;
  void retire_oldest();

  std::vector<ReadStep> steps_;  // of the instruction executing now
  std::vector<Cycles> gates_{0};
  std::vector<Dependency> deps_;  // its dependencies, modes resolved for this run
  bool published_ = false;
  Cycles published_done_ = 0;

  EngineSetup setup_;
  std::uint32_t queue_depth_;
  std::uint32_t max_in_flight_;
  std::deque<Queued> queue_;          // its first in_flight_.size() entries have started
  std::deque<InstructionRecord> in_flight_;  // started, not retired, program order
  Cycles covered_until_ = 0;          // busy or stall time counted up to here
  sc_core::sc_event pushed_;
  sc_core::sc_event room_freed_;
  sc_core::sc_event started_;
  sc_core::sc_event retired_;
  EngineStats stats_;
  std::unique_ptr<StatGroup> own_stat_group_;  // when no registry was given
  StatGroup* stat_group_ = nullptr;
};

}  // namespace npusim
