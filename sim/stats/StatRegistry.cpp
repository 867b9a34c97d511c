#include "sim/stats/StatRegistry.h"

#include <stdexcept>

namespace npusim {

std::uint64_t& StatGroup::counter(std::string name, std::string unit, std::string description) {
  for (const auto& c : counters_)
    if (c.name == name) throw std::logic_error(owner_ + " registers counter '" + name + "' twice");
  counters_.push_back({std::move(name), std::move(unit), std::move(description), 0});
  return counters_.back().value;
}

const std::uint64_t* StatGroup::find(const std::string& name) const {
  for (const auto& c : counters_)
    if (c.name == name) return &c.value;
  return nullptr;
}

std::vector<const StatGroup*> StatRegistry::groups_within(const std::string& owner, const std::string& kind) const {
  std::vector<const StatGroup*> found;
  for (const auto& g : groups_)
    if (g.kind() == kind && (g.owner() == owner || g.owner().rfind(owner + ".", 0) == 0)) found.push_back(&g);
  return found;
}

StatGroup& StatRegistry::group(std::string owner, std::string kind) {
  for (const auto& g : groups_)
    if (g.owner() == owner) throw std::logic_error("stat group '" + owner + "' is registered twice");
  groups_.emplace_back(std::move(owner), std::move(kind));
  return groups_.back();
}

nlohmann::ordered_json StatRegistry::values() const {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& g : groups_) {
    if (g.counters().empty()) continue;
    auto& row = out[g.owner()];
    for (const auto& c : g.counters()) row[c.name] = c.value;
  }
  return out;
}

nlohmann::ordered_json StatRegistry::kinds() const {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& g : groups_)
    if (!g.counters().empty()) out[g.owner()] = g.kind();
  return out;
}

nlohmann::ordered_json StatRegistry::catalogue() const {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& g : groups_)
    for (const auto& c : g.counters()) {
      const std::string key = g.kind() + "." + c.name;
      if (!out.contains(key)) out[key] = {{"unit", c.unit}, {"description", c.description}};
    }
  return out;
}

}  // namespace npusim
