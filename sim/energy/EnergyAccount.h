#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/common/Cycles.h"
#include "sim/energy/EnergyLedger.h"
#include "sim/energy/EnergyTable.h"

namespace npusim {

struct EnergySplit {
  double dynamic_pj = 0;  // actions: Σ count × pJ per action
  double static_pj = 0;   // leakage: area × power density × run time
  double total_pj() const { return dynamic_pj + static_pj; }
};

using ClassEnergy = std::map<std::string, EnergySplit>;  // by energy class, in name order

// The priced run: energy = Σ count × energy per action, plus leakage, per component
// and class, and the dynamic part per ledger group (a workload's layers).
struct EnergyAccount {
  bool priced = false;  // false for a run without an energy table
  std::string table_file;  // file name only
  std::string table_name;
  double node_nm = 0;
  Cycles cycles = 0;
  std::vector<EnergyComponent> components;
  std::vector<ClassEnergy> component_energy;               // per component
  std::vector<std::vector<double>> part_mm2;               // per component, per part
  std::map<std::size_t, std::map<std::string, double>> group_dynamic_pj;  // group -> class -> pJ
  std::map<std::string, double> static_pj_per_cycle;      // class -> pJ per cycle, whole chip

  EnergySplit total() const;
  ClassEnergy by_class() const;
  double area_mm2() const;
};

// pJ of one count of `a` in an instruction working on `dtype` operands: the price every
// counter of a run is booked at (and a prediction of those counters, LayerPlacement).
double count_pj(const EnergyTable& table, const EnergyAction& a, DType dtype);

// Every class the chip's components use must be in the table (InputError otherwise).
void check_energy_coverage(const EnergyLedger& ledger, const EnergyTable& table);

EnergyAccount price_energy(const EnergyLedger& ledger, const EnergyTable& table, Cycles total_cycles,
                           double clock_mhz);

// The report's "energy" section without per-layer rows (docs/outputs.md), and "area".
nlohmann::json energy_json(const EnergyAccount& account, std::uint64_t macs);
nlohmann::json area_json(const EnergyAccount& account);
// {"dynamic_pj", "static_pj", "total_pj", "classes": {class: pJ}} for one slice of the run.
nlohmann::json energy_row(const ClassEnergy& energy);

}  // namespace npusim
