#pragma once
#include <string>
#include <vector>

#include "sim/energy/EnergyLedger.h"

namespace npusim {

// One of an engine's registered counters, read as an energy action. `group_kind`
// is the kind of the stat group holding it: the engine's own ("matrix") or an
// inner block's ("sparse_unit", one group per unit, each counted).
struct CounterAction {
  std::string group_kind;
  std::string counter;
  EnergyAction action;
};

// What an engine kind says about its energy (docs/energy.md): which counters are
// which actions, and the hardware it is built of, for area and leakage. Declared
// next to the engine, like its counters and config keys.
struct EngineEnergy {
  std::vector<CounterAction> actions;
  std::vector<HardwarePart> parts;
};

}  // namespace npusim
