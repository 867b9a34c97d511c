#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace npusim {

// One class of an energy table: pJ per action, area and leakage.
struct EnergyClassCost {
  std::map<std::string, double> action_pj;  // per count of each action, at the reference capacity
  double area_mm2 = 0;                      // per unit of the class's size (EnergyClassSpec::size_unit)
  double leakage_mw_per_mm2 = 0;
  std::uint64_t reference_capacity_bytes = 0;  // capacity-scaled classes
  double capacity_exponent = 0;                // energy ∝ (capacity / reference)^exponent
};

// A swappable table of per-action energies and areas for one technology node
// (docs/energy.md), read from JSON and checked whole when it is loaded.
class EnergyTable {
 public:
  std::string file;         // as given, for messages
  std::string name;
  double node_nm = 0;
  std::map<std::string, EnergyClassCost> classes;

  bool has(const std::string& cls) const { return classes.count(cls) != 0; }
  // pJ of one `action` of `cls`; a capacity-scaled class scales with `capacity_bytes`.
  double action_pj(const std::string& cls, const std::string& action, std::uint64_t capacity_bytes) const;
  double area_mm2(const std::string& cls, double size) const;
  double leakage_mw_per_mm2(const std::string& cls) const;
};

// Reads and checks a table: a problem is an InputError naming the file, the JSON
// pointer and the reason (a missing file is blamed on `referrer` at `referrer_key`).
EnergyTable load_energy_table(const std::string& path, const std::string& referrer = "",
                              const std::string& referrer_key = "");

// Checks the tables's coverage: `cls` must be present because `who` needs it.
void require_energy_class(const EnergyTable& table, const std::string& cls, const std::string& who);

}  // namespace npusim
