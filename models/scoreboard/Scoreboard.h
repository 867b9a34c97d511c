#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <systemc>

#include "models/scoreboard/Progress.h"
#include "models/scoreboard/SchedulingStats.h"
#include "sim/trace/Instruction.h"

namespace npusim {

// Tracks which dispatched instructions have finished, chip-wide, so an engine
// can hold an instruction until its producers are done. Only the in-flight
// window is stored: ids below the oldest unfinished one are known complete,
// which keeps memory flat however long the trace is.
//
// It also holds the progress each executing instruction published (seed004):
// stage flags, the two-phase release point and its reads, so that consumers
// can start on part of a producer's work and the hazard checker can prove they
// never touch bytes that are not final yet.
class Scoreboard {
 public:
  // `deps` as traced: their producers are kept for the hazard checker until this
  // instruction publishes its progress.
  void dispatched(std::uint64_t id, const std::vector<Dependency>& deps = {});
  void completed(std::uint64_t id);

  bool is_complete(std::uint64_t id) const;
  bool dependencies_met(const std::vector<Dependency>& deps) const;
  std::size_t in_flight() const { return window_.size(); }

  // Every producer has either completed or published its progress.
  bool producers_known(const std::vector<Dependency>& deps) const;
  // Checks `p` against the other instructions in flight (hazards are input
  // errors naming both instructions), then makes it visible to consumers.
  void publish(Progress p);

  // Earliest start of every step of `consumer`, given its dependencies (modes
  // already resolved) and the steps it will read. Records the waits.
  std::vector<Cycles> step_gates(const Instruction& consumer, const std::string& consumer_kind, Viewpoint consumer_at,
                                 const std::vector<Dependency>& deps, const std::vector<ReadStep>& steps,
                                 Cycles at_head);

  SchedulingStats& scheduling() { return scheduling_; }
  const SchedulingStats& scheduling() const { return scheduling_; }
  // Names the layer of an instruction the trace gave no params.layer (a compiled
  // workload's), for hazard messages; may be empty.
  std::function<std::string(std::uint64_t id)> layer_of;
  // Receives stage and release flags for the timeline (may be empty).
  std::function<void(const std::string& engine, const std::string& name, Cycles at)> on_flag;

  // Notified whenever an instruction completes or publishes its progress.
  const sc_core::sc_event& completion_event() const { return completed_event_; }

 private:
  void announce_flags(Progress& producer, const Dependency& dep);
  void retire(std::uint64_t id);

  std::deque<std::pair<std::uint64_t, bool>> window_;  // (id, done), dispatch order
  std::unordered_map<std::uint64_t, Progress> published_;
  std::vector<Progress> retired_;  // finished writers still needed by the hazard checker (retire)
  std::unordered_map<std::uint64_t, std::uint32_t> awaited_;  // producer -> dispatched consumers not yet started
  std::unordered_map<std::uint64_t, bool> flagged_;  // producers whose flags reached the timeline
  SchedulingStats scheduling_;
  sc_core::sc_event completed_event_{"scoreboard_completed"};
};

// Applies the run-wide dependency release (as traced, or one forced mode).
std::vector<Dependency> resolve_dependency_modes(const std::vector<Dependency>& deps, DependencyRelease release);

}  // namespace npusim
