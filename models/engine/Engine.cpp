#include "models/engine/Engine.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/scoreboard/Scoreboard.h"
#include "models/kernel/ProcessFailure.h"
#include "models/kernel/SimTime.h"
#include "sim/common/InputError.h"

namespace npusim {

void fail_instruction(const Instruction& inst, const std::string& reason) {
  throw InputError("", fmt::format("line {} ({} instruction {})", inst.line, inst.op, inst.id), reason);
}

Engine::Engine(sc_core::sc_module_name name, EngineSetup setup, std::uint32_t queue_depth,
               std::uint32_t max_in_flight)
    : sc_module(name), setup_(std::move(setup)), queue_depth_(queue_depth), max_in_flight_(max_in_flight) {
  if (max_in_flight_ == 0 || max_in_flight_ > queue_depth_)
    throw std::logic_error("engine " + std::string(name) + ": instructions in flight must be 1..queue depth");
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
  if (max_in_flight_ > 1) SC_THREAD(retire);
}

void Engine::push(Instruction inst, Cycles dispatched_at) {
  queue_.push_back({std::move(inst), dispatched_at});
  pushed_.notify(sc_core::SC_ZERO_TIME);
}

namespace {
template <class Body>
void parking_failures(Body body) {
  try {
    body();
  } catch (...) {
    park_process_failure(std::current_exception());
  }
}
}  // namespace

void Engine::run() {
  parking_failures([this] { serve_queue(); });
}

// Only engines with several instructions in flight have this thread; the others
// retire each instruction inline, exactly when it ends.
void Engine::retire() {
  parking_failures([this] {
    for (;;) {
      while (in_flight_.empty()) sc_core::wait(started_);
      wait_until(in_flight_.front().end);
      retire_oldest();
    }
  });
}

void Engine::serve_queue() {
  for (;;) {
    // The next instruction is "at the head" once it is queued and a slot is free.
    while (queue_.size() == in_flight_.size() || in_flight_.size() == max_in_flight_)
      sc_core::wait(queue_.size() == in_flight_.size() ? pushed_ : retired_);
    const Queued& next = queue_[in_flight_.size()];
    const Cycles at_head = std::max(next.dispatched_at, now_cycles());
    hold_for_producers(next.inst, at_head);
    in_flight_.push_back(start_next(next, at_head));
    if (max_in_flight_ > 1) {
      started_.notify(sc_core::SC_ZERO_TIME);
      continue;
    }
    wait_until(in_flight_.front().end);
    retire_oldest();
  }
}

// Executes `next` (its producers allow its first step) and describes it; `end`
// is the published end when `execute` returned before it.
InstructionRecord Engine::start_next(const Queued& next, Cycles at_head) {
  const Cycles start = now_cycles();
  published_ = false;
  if (setup_.on_execute) setup_.on_execute(next.inst);
  const Work work = execute(next.inst);
  if (!published_) publish(next.inst, Schedule{{}, {}, now_cycles(), now_cycles(), 0});
  InstructionRecord record;
  record.id = next.inst.id;
  record.op = next.inst.op;
  record.engine = stats_.name;
  record.core = setup_.core;
  record.dispatch = next.dispatched_at;
  record.start = start;
  record.end = std::max(now_cycles(), published_done_);
  record.stall = start - at_head;
  record.bytes = work.bytes;
  record.macs = work.macs;
  record.cache = work.cache;
  record.launched_by_hardware = work.launched_by_hardware;
  record.state = state_label();
  record.lane = free_lane();
  return record;
}

// The lowest lane no instruction in flight holds: overlapping instructions get
// their own timeline tracks (slices on one track must nest).
std::uint32_t Engine::free_lane() const {
  std::uint32_t lane = 0;
  while (std::any_of(in_flight_.begin(), in_flight_.end(), [&](const auto& r) { return r.lane == lane; })) ++lane;
  return lane;
}

// Retires the oldest instruction in flight. Busy time is the union of the
// instructions' [start, end] spans and stall only the dependency waits no older
// instruction covers, so busy + stall never exceeds the run's length; each row
// keeps its own stall.
void Engine::retire_oldest() {
  InstructionRecord record = std::move(in_flight_.front());
  in_flight_.pop_front();
  const Cycles at_head = record.start - record.stall;
  const Cycles stalled_from = std::max(at_head, covered_until_);
  if (record.start > stalled_from) stats_.stall += record.start - stalled_from;
  const Cycles busy_from = std::max(record.start, covered_until_);
  if (record.end > busy_from) stats_.busy += record.end - busy_from;
  covered_until_ = std::max(covered_until_, record.end);
  stats_.instructions += 1;
  stats_.macs += record.macs;

  // Retire before the instruction leaves the queue: its published progress
  // points at the operands stored there.
  setup_.scoreboard->completed(record.id);
  queue_.pop_front();
  room_freed_.notify(sc_core::SC_ZERO_TIME);
  retired_.notify(sc_core::SC_ZERO_TIME);
  if (setup_.on_complete) setup_.on_complete(record);
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
  std::vector<ReadStep> steps;
  steps.push_back(std::move(step));  // an initializer list would copy it
  return steps;
}

void Engine::publish(const Instruction& inst, Schedule schedule) {
  Progress p;
  p.id = inst.id;
  p.at = viewpoint();
  p.engine = stats_.name;
  p.kind = setup_.kind;
  p.op = inst.op;
  if (auto layer = inst.params.find("layer"); layer != inst.params.end() && layer->is_string())
    p.layer = layer->get_ref<const std::string&>();
  p.line = inst.line;
  p.deps = std::move(deps_);  // hold_for_producers resolves them afresh for the next one
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
  published_done_ = schedule.done;
  setup_.scoreboard->publish(std::move(p));
  published_ = true;
}

}  // namespace npusim
