#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace npusim {

// Named counters a block registers for itself, with unit and meaning (as
// ramulator2's stats and gem5's ADD_STAT do). report.json, `npusim diff` and sweep
// columns read them generically, so a new block's counters need no central struct.
class StatGroup {
 public:
  struct Counter {
    std::string name;
    std::string unit;
    std::string description;
    std::uint64_t value = 0;
  };

  StatGroup(std::string owner, std::string kind) : owner_(std::move(owner)), kind_(std::move(kind)) {}

  // The block keeps the returned reference and adds to it; it stays valid for the run.
  std::uint64_t& counter(std::string name, std::string unit, std::string description);

  const std::string& owner() const { return owner_; }  // module path: "core0.matrix"
  const std::string& kind() const { return kind_; }    // block kind: "matrix"
  const std::deque<Counter>& counters() const { return counters_; }
  // The live value of a counter, or nullptr when the group has none of that name.
  const std::uint64_t* find(const std::string& name) const;

 private:
  std::string owner_;
  std::string kind_;
  std::deque<Counter> counters_;  // deque: references survive later registrations
};

// Every group of one simulated chip, in the order the blocks were built.
class StatRegistry {
 public:
  StatGroup& group(std::string owner, std::string kind);
  // The groups of kind `kind` owned by `owner` or by a block inside it ("core0.sparse.unit3").
  std::vector<const StatGroup*> groups_within(const std::string& owner, const std::string& kind) const;

  // {"core0.matrix": {"useful_macs": 123, ...}, ...}: the "stats" section of report.json.
  nlohmann::ordered_json values() const;
  // The kind of each group with counters: {"core0.sparse.unit3": "sparse_unit"}.
  nlohmann::ordered_json kinds() const;
  // {"matrix.useful_macs": {"unit": ..., "description": ...}}: one entry per kind and counter.
  nlohmann::ordered_json catalogue() const;

 private:
  std::deque<StatGroup> groups_;
};

}  // namespace npusim
