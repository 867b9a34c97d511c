#include "apps/compiler/planning/PredictedEnergy.h"

#include "models/dram/Dram.h"
#include "models/engine/EngineRegistry.h"
#include "sim/energy/EnergyAccount.h"

namespace npusim {

namespace {

double counted(const Lowering::PredictedCounts& counts, const std::string& counter) {
  const auto it = counts.counters.find(counter);
  return it == counts.counters.end() ? 0 : it->second;
}

}  // namespace

std::optional<double> predicted_energy_pj(const Lowering& lowering, const Lowering::PredictedCounts& counts,
                                          const CoreConfig& core, const HardwareConfig& hw) {
  const EngineKind* kind = engine_registry().find(lowering.name());
  if (!hw.energy || !kind || !kind->energy) return std::nullopt;
  const EnergyTable& table = *hw.energy;
  double pj = 0;
  for (const CounterAction& a : kind->energy(core).actions)
    if (const double n = counted(counts, a.counter); n > 0) pj += n * count_pj(table, a.action, DType::Int8);
  pj += counts.dram_read * count_pj(table, dram_byte_energy(false), DType::Int8);
  pj += counts.dram_written * count_pj(table, dram_byte_energy(true), DType::Int8);
  return pj;
}

}  // namespace npusim
