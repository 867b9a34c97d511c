#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "models/matrix_unit/MatrixUnitConfig.h"

namespace npusim::test {

// The matrix unit of seed000's embodiments, spelled out here rather than taken from the
// config defaults, so that the golden tests keep the seed's numbers whatever the defaults.
inline MatrixUnitConfig seed_matrix_config() {
  MatrixUnitConfig m{};
  m.queue_depth = 4;
  m.slaves = 16;               // SL0..SL15
  m.cus_per_slave = 4;         // CU0..CU3
  m.row_bytes = 64;            // M = 64 B
  m.first_buffer_rows = 8;     // L1
  m.second_buffer_rows = 9;    // L2
  m.third_buffer_bytes = 4096;
  m.third_buffer_depth = 2;    // not in the seed: the default config's ping-pong result buffer
  m.pci_candidates = {64, 32, 16, 8};
  m.pci_padding_tolerance = 16;  // rule R1: padding - least padding < 16 B
  m.co_block = 64;
  m.mac_latency = 4;
  m.broadcast_bus = {64.0, 2};
  m.distribution_bus = {64.0, 2};
  m.write_back = {64.0, 2};
  m.result_requantize = true;
  m.timing_model = MatrixTimingModel::Fast;
  m.relay_enabled = false;
  m.relay_bytes = 256;
  return m;
}

// Deterministic test data: values spread over the whole int8 range.
inline std::vector<std::int8_t> random_int8(std::size_t count, std::mt19937& rng) {
  std::vector<std::int8_t> v(count);
  for (auto& e : v) e = static_cast<std::int8_t>(static_cast<int>(rng() % 256) - 128);
  return v;
}

inline std::vector<float> random_float(std::size_t count, std::mt19937& rng) {
  std::vector<float> v(count);
  for (auto& e : v) e = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 1000.0f;
  return v;
}

}  // namespace npusim::test
