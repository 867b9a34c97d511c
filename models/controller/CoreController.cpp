#include "models/controller/CoreController.h"

#include "models/kernel/ProcessFailure.h"
#include "models/kernel/SimTime.h"

namespace npusim {

CoreController::CoreController(sc_core::sc_module_name name, const std::string& block, Cycles dispatch_cycles,
                               const DispatchConfig& cfg, Scoreboard& scoreboard, Dispatcher::EngineLookup lookup,
                               StatRegistry& stats, const BlockSpans& spans)
    : sc_module(name),
      dispatcher_(block, dispatch_cycles, cfg, scoreboard, std::move(lookup), &stats, &spans, false),
      depth_(cfg.instruction_buffer) {
  SC_THREAD(run);
}

void CoreController::accept(Instruction inst) {
  buffer_.push_back({std::move(inst), now_cycles()});
  arrived_.notify(sc_core::SC_ZERO_TIME);
}

void CoreController::close() {
  closed_ = true;
  arrived_.notify(sc_core::SC_ZERO_TIME);
}

void CoreController::run() {
  try {
    while (true) {
      while (buffer_.empty() && !closed_) sc_core::wait(arrived_);
      if (buffer_.empty()) break;
      Buffered next = std::move(buffer_.front());
      buffer_.pop_front();
      room_freed_.notify(sc_core::SC_ZERO_TIME);
      dispatcher_.dispatch(std::move(next.inst), next.arrived);
    }
    dispatcher_.flush();
  } catch (...) {
    park_process_failure(std::current_exception());
  }
}

}  // namespace npusim
