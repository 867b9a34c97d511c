#pragma once
#include "models/engine/EngineEnergy.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// A load or store DMA (`slot`): one DMA action per memory transaction it issues.
// Its bytes are priced where they land: DRAM channels, NRAM, WRAM, caches.
EngineEnergy dma_energy(const std::string& slot);

}  // namespace npusim
