#pragma once
#include <cstdint>
#include <string>

#include "sim/config/CoreSections.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// The sparse cluster sized to its core's Wfold matrix unit (/core/sparse/iso_area,
// docs/sparse-iso-area.md). Both areas are the energy table's per-class areas times the
// hardware each engine's registration states (EngineArea.h), as the report prices them.
struct IsoAreaFit {
  double target_mm2 = 0;   // the matrix unit
  double cluster_mm2 = 0;  // the cluster as resolved
  std::uint32_t units = 0, multipliers = 0, min_ports = 0;
};

// The largest size the request allows whose area does not exceed the matrix unit's, with
// the core's other sparse keys as written. Throws InputError at `place`/iso_area when the
// core has no matrix unit, or when the area table cannot meet the request: even the
// smallest size is larger, or the largest the keys allow is still under a step short.
IsoAreaFit fit_to_matrix_area(const CoreConfig& core, const EnergyTable& table, const SectionPlace& place);

// The section's resolve hook: writes the fit into the core's /core/sparse (no-op for none).
void size_to_matrix_area(CoreConfig& core, const EnergyTable& table, const SectionPlace& place);

// One line for explain: the cluster's area, and the matrix unit's when it was sized to it.
std::string cluster_area_line(const CoreConfig& core, const EnergyTable& table);

}  // namespace npusim
