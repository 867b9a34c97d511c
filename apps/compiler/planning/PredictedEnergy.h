#pragma once
#include <optional>

#include "apps/compiler/emit/Lowering.h"

namespace npusim {

struct CoreConfig;

// Placement by cost's energy objective (LayerPlacement.h): the dynamic pJ of `counts`, a
// lowering's predicted counters on its engine of core kind `core`, priced exactly as the run's
// energy account books them: each counter through the engine's own energy declaration
// (EngineKind::energy) and the chip's energy table, int8 operands; DRAM bytes at the table's
// dram read and write prices (the bandwidth model's; a banked DRAM prices commands instead, so
// there the figure is the table's). None without a table or an engine of that name.
std::optional<double> predicted_energy_pj(const Lowering& lowering, const Lowering::PredictedCounts& counts,
                                          const CoreConfig& core, const HardwareConfig& hw);

}  // namespace npusim
