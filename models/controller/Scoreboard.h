#pragma once
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include <systemc>

#include "sim/trace/Instruction.h"

namespace npusim {

// Tracks which dispatched instructions have finished, chip-wide, so an engine
// can hold an instruction until its producers are done. Only the in-flight
// window is stored: ids below the oldest unfinished one are known complete,
// which keeps memory flat however long the trace is.
class Scoreboard {
 public:
  void dispatched(std::uint64_t id);
  void completed(std::uint64_t id);

  bool is_complete(std::uint64_t id) const;
  bool dependencies_met(const std::vector<Dependency>& deps) const;
  std::size_t in_flight() const { return window_.size(); }

  // Notified whenever an instruction completes.
  const sc_core::sc_event& completion_event() const { return completed_event_; }

 private:
  std::deque<std::pair<std::uint64_t, bool>> window_;  // (id, done), dispatch order
  sc_core::sc_event completed_event_{"scoreboard_completed"};
};

}  // namespace npusim
