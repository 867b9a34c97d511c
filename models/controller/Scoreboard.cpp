#include "models/controller/Scoreboard.h"

#include <algorithm>

namespace npusim {

void Scoreboard::dispatched(std::uint64_t id) { window_.emplace_back(id, false); }

void Scoreboard::completed(std::uint64_t id) {
  auto it = std::lower_bound(window_.begin(), window_.end(), std::make_pair(id, false));
  if (it != window_.end() && it->first == id) it->second = true;
  while (!window_.empty() && window_.front().second) window_.pop_front();
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

}  // namespace npusim
