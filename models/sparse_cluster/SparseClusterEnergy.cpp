#include "models/sparse_cluster/SparseClusterEnergy.h"

#include <cmath>

#include "models/compression_block/CompressedRows.h"
#include "models/sparse_cluster/SparseClusterConfig.h"

namespace npusim {

namespace {

// 2x2 switches of one Benes network of `ports` ports: 2 log2(ports) - 1 stages of ports / 2.
double benes_switches(std::uint32_t ports) {
  return ports / 2.0 * (2.0 * std::log2(double(ports)) - 1.0);
}
}  // namespace

// Assumptions: a Benes pass toggles every switch of the network; each non-zero a
// unit multiplies is read once from its FM memory unit and each unique weight once
// from the weight memory; values and indices arriving from DRAM are SRAM writes.
EngineEnergy sparse_cluster_energy(const CoreConfig& core) {
  const SparseClusterConfig& s = core.block<SparseClusterConfig>(SparseClusterConfig::kSection);
  const std::uint64_t fm = s.fm_buffer_bytes, w = s.weight_buffer_bytes;
  EngineEnergy e;
  e.actions = {
      {"sparse", "compressed_elements", {"vector", "lane_op"}},
      {"sparse_unit", "products", {"mac", ""}},
      {"sparse_unit", "min_passes", {"min_switch", "traversal", 0, benes_switches(s.min_ports)}},
      {"sparse_unit", "input_nonzeros", {"sram", "read", fm, double(kCompressedEntryBytes)}},
      {"sparse_unit", "iterations", {"sram", "read", w, double(kCompressedEntryBytes)}},
      {"sparse_fm_memory", "value_bytes", {"sram", "write", fm}},
      {"sparse_fm_memory", "index_bytes", {"sram", "write", fm}},
      {"sparse_weight_memory", "weight_value_bytes", {"sram", "write", w}},
      {"sparse_weight_memory", "weight_index_bytes", {"sram", "write", w}},
  };
  e.parts = {{"mac", double(s.units) * s.multipliers},
             {"sram", (2.0 * double(s.units) * double(fm) + double(w)) / 1024.0},
             {"min_switch", 2.0 * s.units * benes_switches(s.min_ports)},
             {"vector", double(s.compress_elements_per_cycle)}};
  return e;
}

}  // namespace npusim
