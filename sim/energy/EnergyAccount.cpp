#include "sim/energy/EnergyAccount.h"

#include <filesystem>
#include <stdexcept>

#include "sim/energy/EnergyClasses.h"

namespace npusim {

namespace {

const char* mac_action(DType t) {
  switch (t) {
    case DType::Int8:
    case DType::UInt8: return "int8";
    case DType::Float16: return "float16";
    case DType::Float32: return "float32";
    case DType::Int16:
    case DType::Int32: break;
  }
  return nullptr;
}

}  // namespace

double count_pj(const EnergyTable& table, const EnergyAction& a, DType dtype) {
  if (a.own_pj >= 0) return a.own_pj * a.per_count;
  std::string action = a.action;
  if (action.empty()) {
    const char* name = mac_action(dtype);
    if (!name) throw std::logic_error(std::string("no MAC energy for operands of type ") + dtype_name(dtype));
    action = name;
  }
  double pj = table.action_pj(a.component_class, action, a.capacity_bytes) * a.per_count;
  if (a.per_operand_byte) pj *= double(dtype_size(dtype));
  return pj;
}

namespace {

// mW over one cycle at `clock_mhz`, in pJ: mW × 1e-3 × (1e-6 / MHz) s = 1e3 / MHz pJ.
double pj_per_cycle(double mw, double clock_mhz) { return mw * 1e3 / clock_mhz; }

nlohmann::json split_json(const EnergySplit& e) {
  return {{"dynamic_pj", e.dynamic_pj}, {"static_pj", e.static_pj}, {"total_pj", e.total_pj()}};
}

}  // namespace

EnergySplit EnergyAccount::total() const {
  EnergySplit t;
  for (const auto& [cls, e] : by_class()) {
    t.dynamic_pj += e.dynamic_pj;
    t.static_pj += e.static_pj;
  }
  return t;
}

ClassEnergy EnergyAccount::by_class() const {
  ClassEnergy all;
  for (const auto& component : component_energy)
    for (const auto& [cls, e] : component) {
      all[cls].dynamic_pj += e.dynamic_pj;
      all[cls].static_pj += e.static_pj;
    }
  return all;
}

double EnergyAccount::area_mm2() const {
  double a = 0;
  for (const auto& parts : part_mm2)
    for (double mm2 : parts) a += mm2;
  return a;
}

void check_energy_coverage(const EnergyLedger& ledger, const EnergyTable& table) {
  for (const auto& c : ledger.components())
    for (const auto& p : c.parts) require_energy_class(table, p.component_class, c.name);
  for (const auto& s : ledger.sources())
    require_energy_class(table, s.action.component_class, ledger.components()[s.component].name + " " + s.what);
}

EnergyAccount price_energy(const EnergyLedger& ledger, const EnergyTable& table, Cycles total_cycles,
                           double clock_mhz) {
  EnergyAccount acc;
  acc.priced = true;
  acc.table_file = std::filesystem::path(table.file).filename().string();
  acc.table_name = table.name;
  acc.node_nm = table.node_nm;
  acc.cycles = total_cycles;
  acc.components = ledger.components();
  acc.component_energy.resize(acc.components.size());
  acc.part_mm2.resize(acc.components.size());
  for (std::size_t i = 0; i < acc.components.size(); ++i)
    for (const auto& p : acc.components[i].parts) {
      const double mm2 = table.area_mm2(p.component_class, p.size);
      const double per_cycle = pj_per_cycle(mm2 * table.leakage_mw_per_mm2(p.component_class), clock_mhz);
      acc.part_mm2[i].push_back(mm2);
      acc.component_energy[i][p.component_class].static_pj += per_cycle * double(total_cycles);
      acc.static_pj_per_cycle[p.component_class] += per_cycle;
    }
  // pJ per count of each source, per operand type, worked out when first needed (a MAC
  // has no price for an int32 instruction, which never issues one).
  std::map<DType, std::vector<double>> source_pj;
  for (const auto& bucket : ledger.buckets()) {
    auto& group = acc.group_dynamic_pj[bucket.group];
    std::vector<double>& prices = source_pj[bucket.dtype];
    prices.resize(ledger.sources().size(), -1.0);
    for (std::size_t s = 0; s < bucket.counts.size(); ++s) {
      if (bucket.counts[s] == 0) continue;
      const EnergyAction& action = ledger.sources()[s].action;
      if (prices[s] < 0) prices[s] = count_pj(table, action, bucket.dtype);
      const std::string& cls = action.component_class;
      const double pj = double(bucket.counts[s]) * prices[s];
      acc.component_energy[ledger.sources()[s].component][cls].dynamic_pj += pj;
      group[cls] += pj;
    }
  }
  return acc;
}

nlohmann::json energy_row(const ClassEnergy& energy) {
  EnergySplit total;
  nlohmann::json classes = nlohmann::json::object();
  for (const auto& [cls, e] : energy) {
    total.dynamic_pj += e.dynamic_pj;
    total.static_pj += e.static_pj;
    classes[cls] = e.total_pj();
  }
  nlohmann::json row = split_json(total);
  row["classes"] = classes;
  return row;
}

nlohmann::json energy_json(const EnergyAccount& acc, std::uint64_t macs) {
  const EnergySplit total = acc.total();
  nlohmann::json j = split_json(total);
  j["table"] = acc.table_file;
  j["table_name"] = acc.table_name;
  j["node_nm"] = acc.node_nm;
  j["macs"] = macs;
  j["pj_per_mac"] = macs ? total.total_pj() / double(macs) : 0.0;
  nlohmann::json classes = nlohmann::json::array();
  for (const auto& [cls, e] : acc.by_class()) {
    nlohmann::json row = {{"name", cls}};
    row.update(split_json(e));
    row["share"] = total.total_pj() > 0 ? e.total_pj() / total.total_pj() : 0.0;
    classes.push_back(row);
  }
  j["classes"] = classes;
  nlohmann::json engines = nlohmann::json::array(), memories = nlohmann::json::array();
  for (std::size_t i = 0; i < acc.components.size(); ++i) {
    const EnergyComponent& c = acc.components[i];
    nlohmann::json row = {{"name", c.name}, {"kind", c.kind}};
    row.update(energy_row(acc.component_energy[i]));
    (c.memory ? memories : engines).push_back(row);
  }
  j["engines"] = engines;
  j["memories"] = memories;
  return j;
}

nlohmann::json area_json(const EnergyAccount& acc) {
  std::map<std::string, double> by_class;
  nlohmann::json components = nlohmann::json::array();
  for (std::size_t i = 0; i < acc.components.size(); ++i) {
    const EnergyComponent& c = acc.components[i];
    if (c.parts.empty()) continue;
    nlohmann::json parts = nlohmann::json::array();
    double mm2 = 0;
    for (std::size_t k = 0; k < c.parts.size(); ++k) {
      const HardwarePart& p = c.parts[k];
      parts.push_back({{"class", p.component_class},
                       {"size", p.size},
                       {"unit", find_energy_class(p.component_class)->size_unit},
                       {"mm2", acc.part_mm2[i][k]}});
      by_class[p.component_class] += acc.part_mm2[i][k];
      mm2 += acc.part_mm2[i][k];
    }
    components.push_back({{"name", c.name}, {"kind", c.kind}, {"mm2", mm2}, {"parts", parts}});
  }
  nlohmann::json classes = nlohmann::json::array();
  for (const auto& [cls, a] : by_class) classes.push_back({{"name", cls}, {"mm2", a}});
  return {{"node_nm", acc.node_nm}, {"total_mm2", acc.area_mm2()}, {"classes", classes}, {"components", components}};
}

}  // namespace npusim
