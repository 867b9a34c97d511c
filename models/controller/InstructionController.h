#pragma once
#include <functional>

#include <systemc>

#include "models/controller/InstructionSource.h"
#include "sim/common/Cycles.h"

namespace npusim {

class Engine;
class Scoreboard;

// The control module (seed000 §1.3: instruction fetch and decode): fetches
// instructions in program order, spends `dispatch_cycles` on each, and places it
// in the queue of its engine, waiting while that queue is full. Dependencies
// are enforced by the engines at the queue head, not here, so independent work
// on other engines keeps flowing.
class InstructionController : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(InstructionController);
  using EngineLookup = std::function<Engine&(const Instruction&)>;

  InstructionController(sc_core::sc_module_name name, InstructionSource& source, Scoreboard& scoreboard,
                        EngineLookup lookup, Cycles dispatch_cycles);

  std::uint64_t dispatched() const { return dispatched_; }
  // Optional: called after each dispatch (progress reporting).
  std::function<void(std::uint64_t dispatched)> on_dispatch;

 private:
  void fetch();
  void dispatch_all();

  InstructionSource& source_;
  Scoreboard& scoreboard_;
  EngineLookup lookup_;
  Cycles dispatch_cycles_;
  std::uint64_t dispatched_ = 0;
};

}  // namespace npusim
