#include "models/engine/EngineArea.h"

#include <stdexcept>

#include "models/engine/EngineRegistry.h"

namespace npusim {

double engine_area_mm2(const std::string& engine, const CoreConfig& core, const EnergyTable& table) {
  const EngineKind* kind = engine_registry().find(engine);
  if (!kind || !kind->energy) throw std::logic_error("no energy declaration for engine '" + engine + "'");
  double mm2 = 0;
  for (const HardwarePart& part : kind->energy(core).parts) {
    require_energy_class(table, part.component_class, core.kind + "." + engine);
    mm2 += table.area_mm2(part.component_class, part.size);
  }
  return mm2;
}

}  // namespace npusim
