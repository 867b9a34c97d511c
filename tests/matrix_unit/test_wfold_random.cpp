// Randomized functional tests (product §5): the Wfold datapath against the direct reference
// convolution, bit-exact for int8 -> int32, over random shapes and matrix configs. Seeds are
// fixed so every run checks the same cases; each TEST_CASE also asserts that its cases
// covered the features it is meant to exercise.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <sstream>

#include "matrix_unit/FunctionalCheck.h"
#include "matrix_unit/SeedMatrixConfig.h"
#include "models/matrix_unit/WfoldMapping.h"

using namespace npusim;

namespace {

struct CaseLimits {
  std::uint32_t ci_min = 1, ci_max = 32;
  std::uint32_t co_min = 1, co_max = 40;
  std::uint32_t k_max = 5;
  std::uint32_t stride_max = 4;
  std::uint32_t pad_max = 2;
  std::uint32_t extra_size_max = 24;  // input size beyond the smallest that fits the kernel
  std::uint32_t n_max = 2;
  bool vary_config = false;
  std::uint64_t issued_mac_budget = 6'000'000;
};

struct Coverage {
  bool odd_ci = false, odd_co = false, big_ci = false, big_co = false, big_kernel = false;
  bool stride_h[5] = {}, stride_w[5] = {};
  bool kw_split = false, ragged_wo = false, padding = false, minimal_input = false;
  bool multi_block_ci = false, relay = false, aco_padding = false, multi_co_round = false;
  bool folded_wo_filtered = false;

  void note(const ConvShape& s, const WfoldPlan& p) {
    odd_ci |= s.ci % 2 == 1;
    odd_co |= s.co % 2 == 1;
    big_ci |= s.ci >= 200;
    big_co |= s.co >= 150;
    big_kernel |= std::max(s.kh, s.kw) >= 9;
    stride_h[std::min(s.sh, 4u)] = true;
    stride_w[std::min(s.sw, 4u)] = true;
    kw_split |= p.kw_pieces.size() > 1;
    ragged_wo |= p.wo % p.wo_per_tile != 0;
    padding |= s.pad_top + s.pad_bottom + s.pad_left + s.pad_right > 0;
    minimal_input |= s.padded_hi() == s.kh && s.padded_wi() == s.kw;
    multi_block_ci |= p.bci > 1;
    relay |= p.reads.mode == DataRowRead::Relay;
    aco_padding |= p.aco != s.co;
    multi_co_round |= p.co_blocks.size() > 1;
    folded_wo_filtered |= p.stride.folded_wo > p.wo;
  }
  bool all_strides() const {
    for (int s = 1; s <= 4; ++s)
      if (!stride_h[s] || !stride_w[s]) return false;
    return true;
  }
};

std::uint32_t draw(std::mt19937& rng, std::uint32_t lo, std::uint32_t hi) {
  return lo + static_cast<std::uint32_t>(rng() % (hi - lo + 1));
}

MatrixUnitConfig random_config(std::mt19937& rng) {
  MatrixUnitConfig m = test::seed_matrix_config();
  const std::uint32_t rows[] = {16, 32, 64, 128};
  m.row_bytes = rows[draw(rng, 0, 3)];
  m.slaves = draw(rng, 1, 16);
  m.cus_per_slave = draw(rng, 1, 4);
  m.first_buffer_rows = m.cus_per_slave + draw(rng, 0, 5);  // L1 == Ncu gives kmax 1
  m.second_buffer_rows = draw(rng, 1, 10);
  m.pci_candidates = {m.row_bytes};
  for (std::uint32_t c = m.row_bytes / 2; c >= 4 && c >= m.row_bytes / 16; c /= 2)
    if (rng() % 3 != 0) m.pci_candidates.push_back(c);
  const std::uint32_t tolerances[] = {0, 8, 16};
  m.pci_padding_tolerance = tolerances[draw(rng, 0, 2)];
  m.co_block = rng() % 2 ? m.slaves * draw(rng, 1, 4) : draw(rng, 1, 80);
  m.third_buffer_bytes = 1u << 20;
  m.relay_enabled = rng() % 2;
  m.relay_bytes = rng() % 2 ? std::max(64u, m.row_bytes) : 8192;  // the loader requires >= one row
  return m;
}

// Extent of the input along one axis: at least enough for the kernel after padding.
std::uint32_t input_extent(std::mt19937& rng, std::uint32_t k, std::uint32_t pad_sum,
                           std::uint32_t extra_max) {
  std::uint32_t smallest = k > pad_sum ? k - pad_sum : 1;
  return smallest + (rng() % 4 == 0 ? 0 : draw(rng, 0, extra_max));
}

ConvShape random_shape(std::mt19937& rng, const CaseLimits& lim) {
  ConvShape s;
  s.n = draw(rng, 1, lim.n_max);
  s.ci = draw(rng, lim.ci_min, lim.ci_max);
  s.co = draw(rng, lim.co_min, lim.co_max);
  s.kh = draw(rng, 1, lim.k_max);
  s.kw = draw(rng, 1, lim.k_max);
  s.sh = draw(rng, 1, lim.stride_max);
  s.sw = draw(rng, 1, lim.stride_max);
  if (rng() % 3 != 0) {
    s.pad_top = draw(rng, 0, std::min(lim.pad_max, s.kh - 1));
    s.pad_bottom = draw(rng, 0, std::min(lim.pad_max, s.kh - 1));
    s.pad_left = draw(rng, 0, std::min(lim.pad_max, s.kw - 1));
    s.pad_right = draw(rng, 0, std::min(lim.pad_max, s.kw - 1));
  }
  s.hi = input_extent(rng, s.kh, s.pad_top + s.pad_bottom, lim.extra_size_max);
  s.wi = input_extent(rng, s.kw, s.pad_left + s.pad_right, lim.extra_size_max);
  return s;
}

std::string describe(const MatrixUnitConfig& m, const ConvShape& s) {
  std::ostringstream o;
  o << s.to_string() << " | ns=" << m.slaves << " ncu=" << m.cus_per_slave << " M=" << m.row_bytes
    << " L1=" << m.first_buffer_rows << " L2=" << m.second_buffer_rows << " tol="
    << m.pci_padding_tolerance << " co_block=" << m.co_block << " relay=" << m.relay_enabled
    << "/" << m.relay_bytes << " pci={";
  for (auto c : m.pci_candidates) o << c << " ";
  o << "}";
  return o.str();
}

// Draws `count` cases within the MAC budget and checks each one bit-exactly.
Coverage run_random_cases(std::uint32_t seed, int count, const CaseLimits& lim) {
  std::mt19937 rng(seed);
  Coverage coverage;
  for (int i = 0; i < count; ++i) {
    MatrixUnitConfig cfg = lim.vary_config ? random_config(rng) : test::seed_matrix_config();
    ConvShape s;
    WfoldPlan plan;
    do {
      s = random_shape(rng, lim);
      plan = plan_wfold_conv(cfg, s);
    } while (plan.macs.issued > lim.issued_mac_budget);
    coverage.note(s, plan);
    INFO("case " << i << ": " << describe(cfg, s));
    REQUIRE(test::wfold_int8_mismatches(cfg, s, seed * 1000 + i) == 0);
  }
  return coverage;
}

}  // namespace

TEST_CASE("Wfold int8 equals reference: small channels, all strides, padding", "[matrix_unit]") {
  CaseLimits lim;
  Coverage c = run_random_cases(1, 2000, lim);
  CHECK(c.all_strides());
  CHECK(c.odd_ci);
  CHECK(c.odd_co);
  CHECK(c.padding);
  CHECK(c.ragged_wo);
  CHECK(c.minimal_input);
  CHECK(c.aco_padding);
  CHECK(c.folded_wo_filtered);
}

TEST_CASE("Wfold int8 equals reference: wide ci up to 300 and co up to 200", "[matrix_unit]") {
  CaseLimits lim;
  lim.ci_min = 100, lim.ci_max = 300;
  lim.co_min = 60, lim.co_max = 200;
  lim.k_max = 3;
  lim.extra_size_max = 8;
  lim.n_max = 1;
  lim.issued_mac_budget = 40'000'000;
  Coverage c = run_random_cases(2, 300, lim);
  CHECK(c.big_ci);
  CHECK(c.big_co);
  CHECK(c.multi_block_ci);
  CHECK(c.multi_co_round);
  CHECK(c.odd_ci);
  CHECK(c.odd_co);
}

TEST_CASE("Wfold int8 equals reference: kernels up to 11 and kw beyond kmax", "[matrix_unit]") {
  CaseLimits lim;
  lim.ci_min = 1, lim.ci_max = 80;
  lim.co_max = 24;
  lim.k_max = 11;
  lim.pad_max = 5;
  lim.extra_size_max = 8;
  lim.n_max = 1;
  lim.vary_config = true;
  Coverage c = run_random_cases(3, 1500, lim);
  CHECK(c.big_kernel);
  CHECK(c.kw_split);
  CHECK(c.all_strides());
  CHECK(c.minimal_input);
}

TEST_CASE("Wfold int8 equals reference: random matrix configs", "[matrix_unit][heavy]") {
  CaseLimits lim;
  lim.ci_max = 300;
  lim.co_max = 100;
  lim.k_max = 7;
  lim.extra_size_max = 10;
  lim.vary_config = true;
  Coverage c = run_random_cases(4, 1500, lim);
  CHECK(c.kw_split);
  CHECK(c.ragged_wo);
  CHECK(c.multi_block_ci);
  CHECK(c.relay);
  CHECK(c.multi_co_round);
  CHECK(c.all_strides());
}

TEST_CASE("Wfold float32 equals reference within rounding tolerance", "[matrix_unit][heavy]") {
  // float32 sums in the hardware's order (Pci lanes per CU, then kw, bci, kh, pieces), the
  // reference in double in window order; float32 rounding stays far below 1e-5 of the sum
  // of |products| for these sizes.
  std::mt19937 rng(5);
  CaseLimits lim;
  lim.ci_max = 120;
  lim.co_max = 40;
  lim.k_max = 7;
  lim.vary_config = true;
  for (int i = 0; i < 500; ++i) {
    MatrixUnitConfig cfg = random_config(rng);
    ConvShape s = random_shape(rng, lim);
    s.element_bytes = 4;
    WfoldPlan plan = plan_wfold_conv(cfg, s);
    if (plan.macs.issued > lim.issued_mac_budget) continue;
    INFO("case " << i << ": " << describe(cfg, s));
    REQUIRE(test::wfold_float_mismatches(cfg, s, 500 + i, 1e-5) == 0);
  }
}
