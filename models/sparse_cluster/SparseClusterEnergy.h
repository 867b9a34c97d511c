#pragma once
#include "models/engine/EngineEnergy.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// The sparse tensor cluster's energy actions and hardware (docs/energy.md).
EngineEnergy sparse_cluster_energy(const CoreConfig& core);

}  // namespace npusim
