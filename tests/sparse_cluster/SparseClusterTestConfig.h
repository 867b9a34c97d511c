#pragma once
// Helpers of the sparse cluster's model-level tests: random sparse int8 data and a
// cluster configuration filled in by hand (no config file).
#include <cstdint>
#include <random>
#include <vector>

#include "models/sparse_cluster/SparseClusterConfig.h"
#include "models/sparse_compute_unit/ProductIndex.h"

namespace npusim::test {

inline std::vector<std::int8_t> random_values(std::mt19937& rng, std::size_t n, double zeros) {
  std::vector<std::int8_t> v(n);
  std::uniform_real_distribution<double> u(0, 1);
  for (auto& x : v) {
    const int r = int(rng() % 255) - 127;  // -127 .. 127
    x = u(rng) < zeros || r == 0 ? 0 : std::int8_t(r);
  }
  return v;
}

inline SparseClusterConfig cluster(std::uint32_t units, ComputeInterconnectKind link, std::uint32_t ports) {
  SparseClusterConfig c{};
  c.units = units;
  c.unit_kind = SparseUnitKind::Unit1500;
  c.multipliers = 5;
  c.max_weights_per_round = 2;
  c.adder_merge = true;
  c.min_ports = ports;
  c.balance_threshold = 0.03;
  c.balance_metric = BalanceMetric::NonzeroCount;
  c.partition = PartitionPolicy::Balanced;
  c.submaps_per_unit = 1;
  c.compute_interconnect = link;
  c.round_cycles = 1;
  c.window_cycles = 2;
  return c;
}

// MIN ports enough for a kh x kw kernel's VAR (and the 5 multipliers of cluster()).
inline std::uint32_t ports_for(std::uint32_t kh, std::uint32_t kw) {
  std::uint32_t p = 8;
  while (p < var_side(kh) * var_side(kw)) p *= 2;
  return p;
}

}  // namespace npusim::test
