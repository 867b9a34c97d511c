#pragma once
#include <string>
#include <vector>

namespace npusim {

// The primitive component classes an energy table prices (docs/energy.md), as
// Accelergy's primitive library does: what one action of each costs and what one
// unit of each occupies. Engines and memories say which classes they are built of
// and which of their counters are which action; nothing here lists engines.
struct EnergyClassSpec {
  std::string name;                  // "mac", "sram", ...
  std::vector<std::string> actions;  // every action a table must price for the class
  std::string action_unit;           // what one count of an action is: "MAC", "byte", ...
  std::string size_unit;             // area_mm2 is per one of these; "" = no on-chip area
  bool capacity_scaled = false;      // per-byte energies scale with the memory's capacity
  std::string meaning;
};

const std::vector<EnergyClassSpec>& energy_classes();
// nullptr for a name no table may use.
const EnergyClassSpec* find_energy_class(const std::string& name);
std::vector<std::string> energy_class_names();

}  // namespace npusim
