#include "sim/energy/EnergyClasses.h"

namespace npusim {

const std::vector<EnergyClassSpec>& energy_classes() {
  static const std::vector<EnergyClassSpec> classes = {
      {"mac", {"int8", "float16", "float32"}, "MAC", "int8 MAC unit", false,
       "multiply-accumulate, priced at the operand type of the instruction that issued it"},
      {"sram", {"read", "write"}, "byte", "KiB", true,
       "on-chip SRAM (NRAM, WRAM, cluster cache, sparse buffers): per byte at the reference capacity"},
      {"register_file", {"read", "write"}, "byte", "KiB", true,
       "small operand stores next to the datapath (slave buffers, the shader register file)"},
      {"bus", {"transfer"}, "byte", "", false, "an on-chip bus or link carrying one byte"},
      {"dram", {"read", "write"}, "byte", "", false, "off-chip DRAM, interface included"},
      {"dma", {"transaction"}, "transaction", "engine", false,
       "a DMA or fetch engine issuing one memory transaction (descriptor and address generation)"},
      {"vector", {"lane_op"}, "lane op", "lane", false, "one int8 lane of a vector or scan unit for one element"},
      {"min_switch", {"traversal"}, "switch traversal", "2x2 switch", false,
       "a value crossing one 2x2 switch of a Benes multistage network"},
  };
  return classes;
}

const EnergyClassSpec* find_energy_class(const std::string& name) {
  for (const auto& c : energy_classes())
    if (c.name == name) return &c;
  return nullptr;
}

std::vector<std::string> energy_class_names() {
  std::vector<std::string> names;
  for (const auto& c : energy_classes()) names.push_back(c.name);
  return names;
}

}  // namespace npusim
