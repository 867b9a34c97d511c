#pragma once
#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "models/controller/CoreController.h"
#include "models/controller/Dispatcher.h"
#include "models/controller/InstructionSource.h"

namespace npusim {

class Engine;
class Scoreboard;

// The control module (seed000 §1.3: instruction fetch and decode) reads instructions in
// program order. With /core/controller/placement "chip" it fetches, decodes and dispatches
// them itself (its Dispatcher); with "core" it hands each to its core's CoreController,
// waiting while that core's instruction buffer is full, and every core dispatches its own.
// Dependencies are enforced by the engines at the queue head, not here, so independent
// work on other engines keeps flowing.
class InstructionController : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(InstructionController);
  using EngineLookup = Dispatcher::EngineLookup;

  // `stats`, `spans`: where the controllers' counters and busy spans go (Dispatcher::measured).
  InstructionController(sc_core::sc_module_name name, InstructionSource& source, Scoreboard& scoreboard,
                        EngineLookup lookup, Cycles dispatch_cycles, const DispatchConfig& cfg, std::uint32_t cores,
                        StatRegistry& stats, const BlockSpans& spans);

  std::uint64_t dispatched() const;
  // Optional: called after each instruction leaves the program stream (progress reporting).
  std::function<void(std::uint64_t dispatched)> on_dispatch;

 private:
  void fetch();
  void dispatch_all();
  void hand_to_core(Instruction inst);

  InstructionSource& source_;
  Scoreboard& scoreboard_;
  Dispatcher dispatcher_;
  std::vector<std::unique_ptr<CoreController>> cores_;  // per-core placement only
  std::uint64_t* buffer_full_ = nullptr;                // cycles the stream waited for a core's buffer
  std::uint64_t streamed_ = 0;
};

}  // namespace npusim
