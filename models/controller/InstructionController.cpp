#include "models/controller/InstructionController.h"

#include "models/scoreboard/Scoreboard.h"
#include "models/engine/Engine.h"
#include "models/kernel/ProcessFailure.h"
#include "models/kernel/SimTime.h"

namespace npusim {

InstructionController::InstructionController(sc_core::sc_module_name name, InstructionSource& source,
                                             Scoreboard& scoreboard, EngineLookup lookup, Cycles dispatch_cycles)
    : sc_module(name),
      source_(source),
      scoreboard_(scoreboard),
      lookup_(std::move(lookup)),
      dispatch_cycles_(dispatch_cycles) {
  SC_THREAD(fetch);
}

void InstructionController::fetch() {
  try {
    dispatch_all();
  } catch (...) {
    park_process_failure(std::current_exception());
  }
}

void InstructionController::dispatch_all() {
  Instruction inst;
  while (source_.next(inst)) {
    if (dispatch_cycles_ > 0) sc_core::wait(cycles_to_time(dispatch_cycles_));
    Engine& engine = lookup_(inst);
    while (!engine.has_room()) sc_core::wait(engine.room_freed());
    scoreboard_.dispatched(inst.id, inst.deps);
    engine.push(std::move(inst), now_cycles());
    inst = Instruction();
    ++dispatched_;
    if (on_dispatch) on_dispatch(dispatched_);
  }
}

}  // namespace npusim
