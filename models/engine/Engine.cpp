#include "models/engine/Engine.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/scoreboard/Scoreboard.h"
#include "models/kernel/ProcessFailure.h"
#include "models/kernel/SimTime.h"
#include "sim/common/InputError.h"

namespace npusim {

void fail_instruction(const Instruction& inst, const std::string& reason) {
  throw InputError("", fmt::format("line {} ({} instruction {})", inst.line, inst.op, inst.id), reason);
}

Engine::Engine(sc_core::sc_module_name name, EngineSetup setup, std::uint32_t queue_depth)
    : sc_module(name), setup_(std::move(setup)), queue_depth_(queue_depth) {
  stats_.name = "core" + std::to_string(setup_.core) + "." + setup_.kind;
  stats_.kind = setup_.kind;
  stats_.core = setup_.core;
  if (setup_.stats) {
    stat_group_ = &setup_.stats->group(stats_.name, setup_.kind);
  } else {
    own_stat_group_ = std::make_unique<StatGroup>(stats_.name, setup_.kind);
    stat_group_ = own_stat_group_.get();
  }
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
    hold_for_producers(head.inst, at_head);
    const Cycles start = now_cycles();
    published_ = false;
    if (setup_.on_execute) setup_.on_execute(head.inst);
    const Work work = execute(head.inst);
    const Cycles end = now_cycles();
    if (!published_) publish(head.inst, Schedule{{}, {}, end, end, 0});

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
    record.state = state_label();
    stats_.instructions += 1;
    stats_.busy += end - start;
    stats_.stall += record.stall;
    stats_.macs += work.macs;

    // Retire before the instruction leaves the queue: its published progress
    // points at the operands stored there.
    scoreboard.completed(record.id);
    queue_.pop_front();
    room_freed_.notify(sc_core::SC_ZERO_TIME);
    if (setup_.on_complete) setup_.on_complete(record);
  }
}

// Waits until every producer has at least published its progress, then until
// the first step of `inst` is released by them.
Cycles Engine::hold_for_producers(const Instruction& inst, Cycles at_head) {
  Scoreboard& scoreboard = *setup_.scoreboard;
  deps_ = resolve_dependency_modes(
      inst.deps, setup_.hardware ? setup_.hardware->core.controller.dependency_mode : DependencyRelease::AsTraced);
  while (!scoreboard.producers_known(deps_)) sc_core::wait(scoreboard.completion_event());
  steps_ = read_steps(inst);
  gates_ = scoreboard.step_gates(inst, setup_.kind, viewpoint(), deps_, steps_, at_head);
  wait_until(gates_.front());
  return gates_.front();
}

std::vector<ReadStep> Engine::read_steps(const Instruction& inst) {
  ReadStep step;
  for (const auto& in : inst.inputs) step.reads.push_back({&in, in.offset, in.end()});
  return {step};
}

void Engine::publish(const Instruction& inst, Schedule schedule) {
  Progress p;
  p.id = inst.id;
  p.at = viewpoint();
  p.engine = stats_.name;
  p.kind = setup_.kind;
  p.op = inst.op;
  if (inst.params.contains("layer") && inst.params["layer"].is_string()) p.layer = inst.params["layer"];
  p.line = inst.line;
  p.deps = deps_;
  p.start = now_cycles();
  p.writes = !inst.outputs.empty();
  if (p.writes) p.output = inst.outputs.front();
  p.tile_bytes = schedule.tile_bytes;
  p.written = std::move(schedule.written);
  if (p.written.empty() && p.writes) p.written.push_back({schedule.done, p.output.bytes()});
  p.steps = std::move(steps_);
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const auto& t = i < schedule.reads.size() ? schedule.reads[i] : std::make_pair(p.start, schedule.done);
    p.steps[i].read_start = t.first;
    p.steps[i].read_done = t.second;
  }
  p.release = schedule.release;
  p.done = schedule.done;
  setup_.scoreboard->publish(std::move(p));
  published_ = true;
}

}  // namespace npusim
