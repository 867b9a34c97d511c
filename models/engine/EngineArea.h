#pragma once
#include <string>

#include "sim/config/HardwareConfig.h"

namespace npusim {

// The area of one engine of `core`, in mm²: the hardware its registration states
// (EngineKind::energy parts) priced by the energy table's per-class areas, as the run
// report's area section prices it. Throws std::logic_error for an unregistered engine,
// InputError (at the table) when the table lacks one of its classes.
double engine_area_mm2(const std::string& engine, const CoreConfig& core, const EnergyTable& table);

}  // namespace npusim
