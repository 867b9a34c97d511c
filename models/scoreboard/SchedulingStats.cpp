#include "models/scoreboard/SchedulingStats.h"

#include <algorithm>

namespace npusim {

void SchedulingStats::Waits::add(Cycles c) {
  count += 1;
  cycles += c;
  max = std::max(max, c);
}

nlohmann::json SchedulingStats::Waits::to_json() const {
  return {{"count", count},
          {"wait_cycles", cycles},
          {"max_wait_cycles", max},
          {"mean_wait_cycles", count ? double(cycles) / double(count) : 0.0}};
}

void SchedulingStats::dependency_wait(DependencyMode mode, const std::string& producer_kind,
                                      const std::string& consumer_kind, Cycles wait) {
  total_.add(wait);
  Waits*& by_mode = mode_waits_.at(static_cast<std::size_t>(mode));
  if (!by_mode) by_mode = &by_mode_[json_name(mode)];
  by_mode->add(wait);
  pair_waits(producer_kind, consumer_kind).add(wait);
}

SchedulingStats::Waits& SchedulingStats::pair_waits(const std::string& producer_kind,
                                                    const std::string& consumer_kind) {
  for (const PairSlot& slot : pair_slots_)
    if (slot.producer_kind == producer_kind && slot.consumer_kind == consumer_kind) return *slot.waits;
  Waits& waits = by_pair_[producer_kind + "->" + consumer_kind];
  pair_slots_.push_back({producer_kind, consumer_kind, &waits});
  return waits;
}

void SchedulingStats::first_compute(const std::string& layer, Cycles cycles) {
  if (!have_first_) very_first_ = cycles;
  have_first_ = true;
  first_compute_.add(cycles);
  // Only named layers get a row: an unnamed long trace must not grow the report.
  if (!layer.empty() && first_compute_by_layer_.count(layer) == 0) first_compute_by_layer_[layer] = cycles;
}

nlohmann::json SchedulingStats::to_json(const RunStats& run) const {
  nlohmann::json deps = {{"mode_override", override_}, {"total", total_.to_json()}};
  deps["by_mode"] = nlohmann::json::object();
  for (const auto& [mode, w] : by_mode_) deps["by_mode"][mode] = w.to_json();
  deps["by_engine_pair"] = nlohmann::json::object();
  for (const auto& [pair, w] : by_pair_) deps["by_engine_pair"][pair] = w.to_json();

  nlohmann::json first = {{"count", first_compute_.count},
                          {"first_cycles", very_first_},
                          {"max_cycles", first_compute_.max},
                          {"mean_cycles", first_compute_.count ? double(first_compute_.cycles) / first_compute_.count : 0.0}};
  first["by_layer"] = nlohmann::json::object();
  for (const auto& [layer, c] : first_compute_by_layer_) first["by_layer"][layer] = c;

  Cycles busy = 0;
  for (const auto& e : run.engines) busy += e.busy;
  // Sum of engine busy time over the makespan: 1.0 means no two engines ever
  // worked at once, higher means the dependency modes let them overlap.
  nlohmann::json overlap = {{"engine_busy_cycles", busy},
                            {"total_cycles", run.total_cycles},
                            {"ratio", run.total_cycles ? double(busy) / double(run.total_cycles) : 0.0}};
  return {{"dependencies", deps}, {"time_to_first_compute", first}, {"overlap", overlap}};
}

}  // namespace npusim
