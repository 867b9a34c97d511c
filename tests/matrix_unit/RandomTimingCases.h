#pragma once
// Random Wfold layers and matrix-unit configs (random buses, depths, co blocks) whose runs stay
// small, for the tests that check the plan and its timing against references.
#include <algorithm>
#include <initializer_list>
#include <random>
#include <sstream>
#include <string>

#include "matrix_unit/SeedMatrixConfig.h"
#include "models/matrix_unit/WfoldMapping.h"

namespace npusim::test {

// A small unit for the hand-worked timings: 4 slaves of 4 CUs, M = 64 B, L1 = 8, L2 = 9
// (a ring of 8 rows for Nco = 4), every rate and latency named here. The master's NRAM reads
// are free (rule 1a off) so the buses set the windows' pace; test_master_reads.cpp times them.
inline MatrixUnitConfig timing_config() {
  MatrixUnitConfig m = seed_matrix_config();
  m.nram_read.request_cycles = 0;
  m.slaves = 4;
  m.broadcast_bus = {64.0, 2};
  m.distribution_bus = {64.0, 2};
  m.write_back = {64.0, 2};
  m.mac_latency = 4;
  m.third_buffer_depth = 2;
  m.third_buffer_bytes = 4096;
  m.result_requantize = false;
  return m;
}

inline std::uint32_t draw(std::mt19937& rng, std::uint32_t lo, std::uint32_t hi) {
  return lo + static_cast<std::uint32_t>(rng() % (hi - lo + 1));
}
template <typename T>
inline T pick(std::mt19937& rng, std::initializer_list<T> values) {
  return values.begin()[rng() % values.size()];
}

inline BusConfig random_bus(std::mt19937& rng) {
  return {pick(rng, {5.5, 12.25, 24.0, 64.0, 200.0}), draw(rng, 0, 5)};
}

inline MatrixUnitConfig random_config(std::mt19937& rng) {
  MatrixUnitConfig m = timing_config();
  m.row_bytes = pick(rng, {16u, 32u, 64u, 128u});
  m.slaves = draw(rng, 1, 16);
  m.cus_per_slave = draw(rng, 1, 4);
  m.first_buffer_rows = m.cus_per_slave + draw(rng, 0, 6);  // L1 = Ncu: kmax 1, kw split
  m.second_buffer_rows = draw(rng, 1, 10);
  m.pci_candidates = {m.row_bytes};
  for (std::uint32_t c = m.row_bytes / 2; c >= 4 && c * 16 >= m.row_bytes; c /= 2)
    if (rng() % 3 != 0) m.pci_candidates.push_back(c);
  m.co_block = rng() % 2 ? m.slaves * draw(rng, 1, 4) : draw(rng, 1, 80);
  m.broadcast_bus = random_bus(rng);
  m.distribution_bus = random_bus(rng);
  m.write_back = random_bus(rng);
  m.mac_latency = draw(rng, 0, 6);
  m.third_buffer_depth = draw(rng, 1, 3);
  m.third_buffer_bytes = 1u << 24;  // capped per case once the set size is known
  return m;
}

inline ConvShape random_layer(std::mt19937& rng, std::uint32_t element_bytes) {
  ConvShape s;
  s.element_bytes = element_bytes;
  s.n = draw(rng, 1, 2);
  s.ci = draw(rng, 1, 80);
  s.co = draw(rng, 1, 80);
  s.kh = draw(rng, 1, 7);
  s.kw = draw(rng, 1, 7);
  s.sh = draw(rng, 1, 3);
  s.sw = draw(rng, 1, 3);
  s.pad_top = draw(rng, 0, std::min(2u, s.kh - 1));
  s.pad_bottom = draw(rng, 0, std::min(2u, s.kh - 1));
  s.pad_left = draw(rng, 0, std::min(2u, s.kw - 1));
  s.pad_right = draw(rng, 0, std::min(2u, s.kw - 1));
  // At least the kernel after padding, and a few positions more.
  s.hi = (s.kh > s.pad_top + s.pad_bottom ? s.kh - s.pad_top - s.pad_bottom : 1) + draw(rng, 0, 4);
  s.wi = (s.kw > s.pad_left + s.pad_right ? s.kw - s.pad_left - s.pad_right : 1) + draw(rng, 0, 12);
  return s;
}

struct RandomCase {
  MatrixUnitConfig cfg;
  WfoldPlan plan;
  std::string name;
};

// A layer and config whose run stays small; the third buffer is capped to 1-3 result sets.
inline RandomCase random_case(std::mt19937& rng, std::uint32_t element_bytes) {
  RandomCase c;
  do {
    c.cfg = random_config(rng);
    c.plan = plan_wfold_conv(c.cfg, random_layer(rng, element_bytes));
  } while (c.plan.macs.issued > 3'000'000);
  c.cfg.third_buffer_bytes = c.plan.third_buffer_bytes_needed * draw(rng, 1, 3);
  std::ostringstream o;
  o << c.plan.layer.to_string() << " | ns=" << c.cfg.slaves << " ncu=" << c.cfg.cus_per_slave
    << " M=" << c.cfg.row_bytes << " L1=" << c.cfg.first_buffer_rows << " L2=" << c.cfg.second_buffer_rows
    << " co_block=" << c.cfg.co_block << " bus=" << c.cfg.broadcast_bus.bytes_per_cycle << "/"
    << c.cfg.broadcast_bus.latency << " link=" << c.cfg.distribution_bus.bytes_per_cycle << "/"
    << c.cfg.distribution_bus.latency << " wb=" << c.cfg.write_back.bytes_per_cycle << "/"
    << c.cfg.write_back.latency << " depth=" << c.cfg.third_buffer_depth << " bytes="
    << c.cfg.third_buffer_bytes;
  c.name = o.str();
  return c;
}

}  // namespace npusim::test
