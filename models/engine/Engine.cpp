#include "models/engine/Engine.h"

#include <algorithm>

#include "models/controller/Scoreboard.h"
#include "models/kernel/ProcessFailure.h"
#include "models/kernel/SimTime.h"

namespace npusim {

Engine::Engine(sc_core::sc_module_name name, EngineSetup setup, std::uint32_t queue_depth)
    : sc_module(name), setup_(std::move(setup)), queue_depth_(queue_depth) {
  stats_.name = "core" + std::to_string(setup_.core) + "." + setup_.kind;
  stats_.kind = setup_.kind;
  stats_.core = setup_.core;
  SC_THREAD(run);
}

void Engine::push(Instruction inst, Cycles dispatched_at) {
  queue_.push_back({std::move(inst), dispatched_at});
  pushed_.notify(sc_core::SC_ZERO_TIME);
}

void Engine::run() {
  try {
    serve_queue();
  } catch (...) {
    park_process_failure(std::current_exception());
  }
}

void Engine::serve_queue() {
  Scoreboard& scoreboard = *setup_.scoreboard;
  for (;;) {
    while (queue_.empty()) sc_core::wait(pushed_);
    Queued& head = queue_.front();
    const Cycles at_head = std::max(head.dispatched_at, now_cycles());
    while (!scoreboard.dependencies_met(head.inst.deps)) sc_core::wait(scoreboard.completion_event());
    const Cycles start = now_cycles();
    const Work work = execute(head.inst);
    const Cycles end = now_cycles();

    InstructionRecord record;
    record.id = head.inst.id;
    record.op = head.inst.op;
    record.engine = stats_.name;
    record.core = setup_.core;
    record.dispatch = head.dispatched_at;
    record.start = start;
    record.end = end;
    record.stall = start - at_head;
    record.bytes = work.bytes;
    record.macs = work.macs;
    stats_.instructions += 1;
    stats_.busy += end - start;
    stats_.stall += record.stall;
    stats_.macs += work.macs;

    queue_.pop_front();
    room_freed_.notify(sc_core::SC_ZERO_TIME);
    scoreboard.completed(record.id);
    if (setup_.on_complete) setup_.on_complete(record);
  }
}

}  // namespace npusim
