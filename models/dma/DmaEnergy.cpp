#include "models/dma/DmaEnergy.h"

namespace npusim {

EngineEnergy dma_energy(const std::string& slot) {
  EngineEnergy e;
  e.actions = {{slot, "transactions", {"dma", "transaction"}}};
  e.parts = {{"dma", 1}};
  return e;
}

}  // namespace npusim
