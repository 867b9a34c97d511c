#pragma once
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "models/matrix_unit/WfoldDatapath.h"
#include "models/matrix_unit/WfoldMapping.h"
#include "reference/ReferenceConv.h"
#include "matrix_unit/SeedMatrixConfig.h"

namespace npusim::test {

// Runs the Wfold datapath and the direct reference on the same random int8 data and
// returns how many int32 outputs differ (bit-exact comparison).
inline std::size_t wfold_int8_mismatches(const MatrixUnitConfig& cfg, const ConvShape& s,
                                         std::uint32_t seed) {
  std::mt19937 rng(seed);
  auto x = random_int8(std::size_t(s.n) * s.hi * s.wi * s.ci, rng);
  auto k = random_int8(std::size_t(s.co) * s.kh * s.kw * s.ci, rng);
  WfoldPlan plan = plan_wfold_conv(cfg, s);
  std::vector<std::int32_t> got(std::size_t(s.n) * plan.ho * plan.wo * s.co, INT32_MIN);
  run_wfold_conv(plan, s, x.data(), k.data(), got.data());
  auto want = reference::direct_conv<std::int8_t, std::int32_t>(s, x, k);
  if (want.size() != got.size()) return want.size() + got.size();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) bad += want[i] != got[i];
  return bad;
}

// float32: the Wfold order of summation differs from the reference's, so compare with a
// tolerance relative to the sum of |products| of each output (a bound on rounding growth).
inline std::size_t wfold_float_mismatches(const MatrixUnitConfig& cfg, const ConvShape& s,
                                          std::uint32_t seed, double relative_tolerance) {
  std::mt19937 rng(seed);
  auto x = random_float(std::size_t(s.n) * s.hi * s.wi * s.ci, rng);
  auto k = random_float(std::size_t(s.co) * s.kh * s.kw * s.ci, rng);
  WfoldPlan plan = plan_wfold_conv(cfg, s);
  std::vector<float> got(std::size_t(s.n) * plan.ho * plan.wo * s.co, NAN);
  run_wfold_conv(plan, s, x.data(), k.data(), got.data());
  auto want = reference::direct_conv<float, double>(s, x, k);
  std::vector<float> ax(x.size()), ak(k.size());
  for (std::size_t i = 0; i < x.size(); ++i) ax[i] = std::fabs(x[i]);
  for (std::size_t i = 0; i < k.size(); ++i) ak[i] = std::fabs(k[i]);
  auto magnitude = reference::direct_conv<float, double>(s, ax, ak);
  if (want.size() != got.size()) return want.size() + got.size();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    double err = std::fabs(double(got[i]) - want[i]);
    bad += !(err <= relative_tolerance * magnitude[i] + 1e-30);
  }
  return bad;
}

}  // namespace npusim::test
