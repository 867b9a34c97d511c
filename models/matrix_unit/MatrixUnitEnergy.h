#pragma once
#include "models/engine/EngineEnergy.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// The Wfold matrix unit's energy actions and hardware (docs/energy.md).
EngineEnergy matrix_unit_energy(const CoreConfig& core);

}  // namespace npusim
