#include "models/controller/Dispatcher.h"

#include <cmath>

#include "models/engine/Engine.h"
#include "models/kernel/SimTime.h"

namespace npusim {

bool Dispatcher::measured(const DispatchConfig& cfg) {
  return cfg.placement == ControllerPlacement::Core || cfg.dispatch_width > 1 || cfg.fetch_bytes_per_cycle > 0;
}

Dispatcher::Dispatcher(std::string name, Cycles dispatch_cycles, const DispatchConfig& cfg, Scoreboard& scoreboard,
                       EngineLookup lookup, StatRegistry* stats, const BlockSpans* spans, bool registers)
    : name_(std::move(name)),
      scoreboard_(scoreboard),
      registers_(registers),
      lookup_(std::move(lookup)),
      dispatch_cycles_(dispatch_cycles),
      width_(cfg.dispatch_width),
      fetch_cycles_(cfg.fetch_bytes_per_cycle > 0 ? cfg.instruction_bytes / cfg.fetch_bytes_per_cycle : 0) {
  if (!stats || !measured(cfg)) return;
  StatGroup& g = stats->group(name_, "controller");
  counted_ = &g.counter("instructions", "instructions", "instructions fetched, decoded and dispatched");
  busy_ = &g.counter("busy_cycles", "cycles", "cycles fetching or decoding (dispatch is saturated when near the run)");
  queue_full_ = &g.counter("queue_full_cycles", "cycles", "cycles waiting for room in an engine's queue");
  spans_ = spans;
}

// Busy spans that touch are one span on the timeline: a saturated controller is one bar.
void Dispatcher::busy_until(Cycles from, Cycles to) {
  if (!busy_ || to <= from) return;
  *busy_ += to - from;
  if (from > run_end_) {
    flush();
    run_start_ = from;
  }
  run_end_ = to;
}

void Dispatcher::flush() {
  if (spans_ && run_end_ > run_start_) spans_->add(name_, "dispatch", run_start_, run_end_);
  run_start_ = run_end_;
}

void Dispatcher::dispatch(Instruction inst, Cycles available) {
  const Cycles arrived = now_cycles();
  if (fetch_cycles_ > 0) fetch_free_ = std::max(fetch_free_, double(available)) + fetch_cycles_;
  if (budget_ == 0) {  // a new dispatch step
    if (dispatch_cycles_ > 0) sc_core::wait(cycles_to_time(dispatch_cycles_));
    budget_ = width_;
  }
  const auto fetched = Cycles(std::ceil(fetch_free_));
  if (fetched > now_cycles()) sc_core::wait(cycles_to_time(fetched - now_cycles()));
  busy_until(arrived, now_cycles());
  Engine& engine = lookup_(inst);
  const Cycles before = now_cycles();
  while (!engine.has_room()) sc_core::wait(engine.room_freed());
  if (queue_full_) *queue_full_ += now_cycles() - before;
  if (registers_) scoreboard_.dispatched(inst.id, inst.deps);
  engine.push(std::move(inst), now_cycles());
  --budget_;
  ++dispatched_;
  if (counted_) ++*counted_;
}

}  // namespace npusim
