#include "apps/simulation/layer_report/LayerEnergy.h"

#include <algorithm>

namespace npusim {

namespace {
// Cycles each layer owns for leakage: the part of the run up to its end not owned before.
std::vector<Cycles> owned_cycles(const std::vector<LayerRow>& rows, Cycles total) {
  std::vector<Cycles> owned(rows.size(), 0);
  Cycles covered = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Cycles end = i + 1 == rows.size() ? std::max(total, rows[i].last_end) : rows[i].last_end;
    if (end > covered) {
      owned[i] = end - covered;
      covered = end;
    }
  }
  return owned;
}
}  // namespace

std::vector<ClassEnergy> layer_energy(const std::vector<LayerRow>& rows, const EnergyAccount& account) {
  std::vector<ClassEnergy> out(rows.size());
  const std::vector<Cycles> owned = owned_cycles(rows, account.cycles);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto group = account.group_dynamic_pj.find(i);
    if (group != account.group_dynamic_pj.end())
      for (const auto& [cls, pj] : group->second) out[i][cls].dynamic_pj += pj;
    for (const auto& [cls, per_cycle] : account.static_pj_per_cycle) out[i][cls].static_pj += per_cycle * double(owned[i]);
  }
  return out;
}

nlohmann::json layer_energy_json(const std::vector<LayerRow>& rows, const EnergyAccount& account) {
  const std::vector<ClassEnergy> energy = layer_energy(rows, account);
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    nlohmann::json row = {{"name", rows[i].name}};
    row.update(energy_row(energy[i]));
    const double total = row.at("total_pj").get<double>();
    row["pj_per_mac"] = rows[i].macs ? total / double(rows[i].macs) : 0.0;
    out.push_back(row);
  }
  return out;
}

}  // namespace npusim
