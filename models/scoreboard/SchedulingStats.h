#pragma once
#include <cstdint>
#include <map>
#include <string>

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
  void dependency_wait(const std::string& mode, const std::string& pair, Cycles wait);
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
  Waits total_;
  std::map<std::string, Waits> by_mode_;
  std::map<std::string, Waits> by_pair_;
  Waits first_compute_;
  bool have_first_ = false;
  Cycles very_first_ = 0;
  std::map<std::string, Cycles> first_compute_by_layer_;
  DependencyRelease override_ = DependencyRelease::AsTraced;
};

}  // namespace npusim
