#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "models/scoreboard/Scoreboard.h"
#include "sim/common/Cycles.h"
#include "models/controller/DispatchConfig.h"
#include "sim/report/BlockSpans.h"
#include "sim/stats/StatRegistry.h"
#include "sim/trace/Instruction.h"

namespace npusim {

class Engine;

// What one control module does with each instruction (seed000 ¶38 IFU/IDU, seed004 §1.2),
// called from its SystemC thread: fetch the instruction word from the internal buffer
// (`instruction_bytes` at `fetch_bytes_per_cycle`, running ahead of decode), decode it in
// dispatch steps of `dispatch_cycles` that place up to `dispatch_width` instructions each,
// and wait while the engine's queue is full. Dependencies are the engines' business.
// Its counters (instructions, busy and queue-full cycles) and busy spans go to the report
// and timeline when `measured`; the default chip-wide one-wide controller is not, so
// reports of the default configs stay as they were.
class Dispatcher {
 public:
  using EngineLookup = std::function<Engine&(const Instruction&)>;
  // `registers`: it tells the scoreboard of each instruction it dispatches. The scoreboard
  // keeps its window in program order, so per-core controllers, which dispatch out of it,
  // leave that to the chip's stream (InstructionController::hand_to_core).
  Dispatcher(std::string name, Cycles dispatch_cycles, const DispatchConfig& cfg, Scoreboard& scoreboard,
             EngineLookup lookup, StatRegistry* stats, const BlockSpans* spans, bool registers = true);

  // `available`: when the instruction word was in the buffer fetch reads (the chip's internal
  // buffer holds the program from the start; a core's buffer from when the stream handed it
  // over). Fetch runs ahead of decode from then on, so only a slower fetch holds dispatch.
  void dispatch(Instruction inst, Cycles available = 0);
  // The end of the run: the last busy span goes to the timeline.
  void flush();
  std::uint64_t dispatched() const { return dispatched_; }
  // Whether a configuration asks for the controllers' counters and spans.
  static bool measured(const DispatchConfig& cfg);

 private:
  void busy_until(Cycles from, Cycles to);

  std::string name_;
  Scoreboard& scoreboard_;
  bool registers_;
  EngineLookup lookup_;
  Cycles dispatch_cycles_;
  std::uint32_t width_;
  double fetch_cycles_;  // per instruction word
  double fetch_free_ = 0;  // when the fetch unit has fetched everything asked so far
  std::uint32_t budget_ = 0;  // instructions the current dispatch step may still place
  std::uint64_t dispatched_ = 0;
  std::uint64_t* busy_ = nullptr;
  std::uint64_t* queue_full_ = nullptr;
  std::uint64_t* counted_ = nullptr;
  const BlockSpans* spans_ = nullptr;
  Cycles run_start_ = 0, run_end_ = 0;  // the busy span being extended
};

}  // namespace npusim
