#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/common/Cycles.h"
#include "sim/common/DependencyModes.h"
#include "sim/report/RunStats.h"

namespace npusim {

// What the dependency modes cost and bought in one run, for report.json:
// cycles consumers waited on their producers (per mode and per engine pair),
// time from a load's start to the first compute on its data, and how much the
// engines overlapped.
class SchedulingStats {
 public:
  SchedulingStats() = default;
  SchedulingStats(const SchedulingStats&) = delete;  // it points into its own maps
  SchedulingStats& operator=(const SchedulingStats&) = delete;

  // A consumer of `consumer_kind` waited `wait` cycles on a producer of `producer_kind`
  // ("finished" when it had completed) under `mode`.
  void dependency_wait(DependencyMode mode, const std::string& producer_kind, const std::string& consumer_kind,
                       Cycles wait);
  // A compute instruction started `cycles` after the earliest load it reads from.
  void first_compute(const std::string& layer, Cycles cycles);
  void set_override(DependencyRelease release) { override_ = release; }

  nlohmann::json to_json(const RunStats& run) const;

 private:
  struct Waits {
    std::uint64_t count = 0;
    Cycles cycles = 0;
    Cycles max = 0;
    void add(Cycles c);
    nlohmann::json to_json() const;
  };
  Waits& pair_waits(const std::string& producer_kind, const std::string& consumer_kind);
  Waits total_;
  std::map<std::string, Waits> by_mode_;
  std::map<std::string, Waits> by_pair_;
  // Every dependency lands here: the map entries each mode and engine pair counts into,
  // found without building their names (map entries never move).
  std::array<Waits*, kDependencyModes.size()> mode_waits_{};
  struct PairSlot {
    std::string producer_kind, consumer_kind;
    Waits* waits;
  };
  std::vector<PairSlot> pair_slots_;
  Waits first_compute_;
  bool have_first_ = false;
  Cycles very_first_ = 0;
  std::map<std::string, Cycles> first_compute_by_layer_;
  DependencyRelease override_ = DependencyRelease::AsTraced;
};

}  // namespace npusim
