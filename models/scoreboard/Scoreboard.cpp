#include "models/scoreboard/Scoreboard.h"

#include <algorithm>

#include "models/scoreboard/HazardCheck.h"

namespace npusim {

void Scoreboard::dispatched(std::uint64_t id, const std::vector<Dependency>& deps) {
  window_.emplace_back(id, false);
  for (const Dependency& d : deps) ++awaited_[d.producer];
}

void Scoreboard::completed(std::uint64_t id) {
  auto it = std::lower_bound(window_.begin(), window_.end(), std::make_pair(id, false));
  if (it != window_.end() && it->first == id) it->second = true;
  while (!window_.empty() && window_.front().second) window_.pop_front();
  retire(id);
  published_.erase(id);
  flagged_.erase(id);
  completed_event_.notify(sc_core::SC_ZERO_TIME);
}

bool Scoreboard::is_complete(std::uint64_t id) const {
  if (window_.empty() || id < window_.front().first) return true;
  auto it = std::lower_bound(window_.begin(), window_.end(), std::make_pair(id, false));
  return it != window_.end() && it->first == id && it->second;
}

bool Scoreboard::dependencies_met(const std::vector<Dependency>& deps) const {
  return std::all_of(deps.begin(), deps.end(), [this](const Dependency& d) { return is_complete(d.producer); });
}

bool Scoreboard::producers_known(const std::vector<Dependency>& deps) const {
  return std::all_of(deps.begin(), deps.end(), [this](const Dependency& d) {
    return is_complete(d.producer) || published_.count(d.producer) != 0;
  });
}

// A finished writer is kept while an instruction before it in program order is
// unfinished: that one may still start and read what this one overwrote. It is
// also kept while a dispatched consumer that depends on it has not started, so
// that a clobber of the value it wrote can name it. Both are bounded by the
// in-flight window, so memory stays flat.
void Scoreboard::retire(std::uint64_t id) {
  const std::uint64_t oldest_unfinished = window_.empty() ? UINT64_MAX : window_.front().first;
  auto needed = [&](std::uint64_t w) { return w >= oldest_unfinished || awaited_.count(w) != 0; };
  retired_.erase(std::remove_if(retired_.begin(), retired_.end(), [&](const Progress& w) { return !needed(w.id); }),
                 retired_.end());
  auto it = published_.find(id);
  if (it == published_.end() || !it->second.writes || !needed(id)) return;
  Progress kept = std::move(it->second);
  kept.steps.clear();  // only its output and when it was written matter now
  kept.read_extents.clear();
  retired_.push_back(std::move(kept));
}

void Scoreboard::publish(Progress p) {
  if (p.layer.empty() && layer_of) p.layer = layer_of(p.id);
  p.read_extents = read_extents_of(p);
  p.output_end = p.output.end();
  check_hazards(p, KnownWriters{published_, retired_});
  for (const Dependency& d : p.deps)
    if (auto it = awaited_.find(d.producer); it != awaited_.end() && --it->second == 0) awaited_.erase(it);
  const std::uint64_t id = p.id;
  published_.insert_or_assign(id, std::move(p));  // no default Progress to assign over
  completed_event_.notify(sc_core::SC_ZERO_TIME);
}

std::vector<Dependency> resolve_dependency_modes(const std::vector<Dependency>& deps, DependencyRelease release) {
  if (release == DependencyRelease::AsTraced) return deps;
  std::vector<Dependency> out = deps;
  for (auto& d : out) {
    if (release == DependencyRelease::Full) d.mode = DependencyMode::Full;
    if (release == DependencyRelease::TwoPhase) d.mode = DependencyMode::TwoPhase;
    if (release == DependencyRelease::Staged) {
      // Forcing staged on a dependency the trace gave no granule uses the
      // producer's own steps, which are exact byte prefixes of its output.
      if (d.mode != DependencyMode::Staged) d.granularity = "tiles";
      d.mode = DependencyMode::Staged;
    }
    if (d.mode != DependencyMode::Staged) d.granularity.clear();
  }
  return out;
}

}  // namespace npusim
