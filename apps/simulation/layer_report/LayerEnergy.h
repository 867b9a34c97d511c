#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/simulation/layer_report/LayerReport.h"
#include "sim/energy/EnergyAccount.h"

namespace npusim {

// Each layer's energy: the dynamic part is what its own instructions' actions cost
// (ledger group = layer index); the static part splits the run's leakage by time,
// layer i owning the cycles from the end of the layers before it to its own end
// (the last layer up to the end of the run), so the rows add up to the total.
std::vector<ClassEnergy> layer_energy(const std::vector<LayerRow>& rows, const EnergyAccount& account);

// The rows for report.json's energy.layers.
nlohmann::json layer_energy_json(const std::vector<LayerRow>& rows, const EnergyAccount& account);

}  // namespace npusim
