#include "models/controller/InstructionController.h"

#include <string>

#include "models/kernel/ProcessFailure.h"
#include "models/kernel/SimTime.h"

namespace npusim {

InstructionController::InstructionController(sc_core::sc_module_name name, InstructionSource& source,
                                             Scoreboard& scoreboard, EngineLookup lookup, Cycles dispatch_cycles,
                                             const DispatchConfig& cfg, std::uint32_t cores, StatRegistry& stats,
                                             const BlockSpans& spans)
    : sc_module(name),
      source_(source),
      scoreboard_(scoreboard),
      // With a controller per core the chip's stream only hands instructions over: the
      // "controller" stat group is its buffer_full_cycles, the cores' groups the rest.
      dispatcher_("controller", dispatch_cycles, cfg, scoreboard, lookup,
                  cfg.placement == ControllerPlacement::Chip ? &stats : nullptr, &spans) {
  if (cfg.placement == ControllerPlacement::Core) {
    for (std::uint32_t k = 0; k < cores; ++k) {
      const std::string core_name = "core" + std::to_string(k) + "_controller";
      cores_.push_back(std::make_unique<CoreController>(core_name.c_str(), "core" + std::to_string(k) + ".controller",
                                                        dispatch_cycles, cfg, scoreboard, lookup, stats, spans));
    }
    buffer_full_ = &stats.group("controller", "controller")
                        .counter("buffer_full_cycles", "cycles",
                                 "cycles the program stream waited for room in a core's instruction buffer");
  }
  SC_THREAD(fetch);
}

std::uint64_t InstructionController::dispatched() const {
  std::uint64_t n = dispatcher_.dispatched();
  for (const auto& c : cores_) n += c->dispatched();
  return n;
}

void InstructionController::fetch() {
  try {
    dispatch_all();
  } catch (...) {
    park_process_failure(std::current_exception());
  }
}

void InstructionController::hand_to_core(Instruction inst) {
  CoreController& core = *cores_.at(inst.core);
  const Cycles before = now_cycles();
  while (!core.has_room()) sc_core::wait(core.room_freed());
  *buffer_full_ += now_cycles() - before;
  scoreboard_.dispatched(inst.id, inst.deps);  // in program order (Dispatcher's `registers`)
  core.accept(std::move(inst));
}

void InstructionController::dispatch_all() {
  Instruction inst;
  while (source_.next(inst)) {
    if (cores_.empty()) dispatcher_.dispatch(std::move(inst));
    else hand_to_core(std::move(inst));
    inst = Instruction();
    ++streamed_;
    if (on_dispatch) on_dispatch(streamed_);
  }
  dispatcher_.flush();
  for (auto& c : cores_) c->close();
}

}  // namespace npusim
