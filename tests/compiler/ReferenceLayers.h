#pragma once
// Reference int8 layers for checking workload runs: NHWC tensors read from the
// .npy files a functional run dumps, conv through the shared direct convolution,
// then the workload's requantization rule.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "reference/ReferenceConv.h"
#include "apps/frontend/workload/Workload.h"
#include "sim/tensor/Npy.h"

namespace npusim::layer_reference {

using Map = std::vector<std::int8_t>;  // NHWC int8
struct Tensor {
  std::uint32_t n = 0, h = 0, w = 0, c = 0;
  Map v;
};

inline Tensor load(const std::string& path) {
  npusim::NpyArray a = npusim::read_npy(path);
  REQUIRE(a.dtype == npusim::DType::Int8);
  Tensor t;
  if (a.shape.size() == 4) t = {std::uint32_t(a.shape[0]), std::uint32_t(a.shape[1]), std::uint32_t(a.shape[2]),
                                std::uint32_t(a.shape[3]), {}};
  t.v.assign(a.data.begin(), a.data.end());
  return t;
}

inline std::int8_t saturate(std::int64_t v) { return std::int8_t(std::clamp<std::int64_t>(v, -128, 127)); }

inline std::int8_t requant(std::int64_t acc, std::uint32_t shift, bool relu) {
  std::int64_t v = (acc + (std::int64_t(1) << (shift - 1))) >> shift;
  return saturate(relu ? std::max<std::int64_t>(v, 0) : v);
}

// Conv through the shared reference, then requantize (shift from the workload rule).
inline Tensor conv(const Tensor& x, const Tensor& k, std::uint32_t co, std::uint32_t kh, std::uint32_t kw,
                   std::uint32_t sh, std::uint32_t sw, std::array<std::uint32_t, 4> pad, bool relu) {
  npusim::ConvShape s;
  s.n = x.n, s.hi = x.h, s.wi = x.w, s.ci = x.c, s.co = co, s.kh = kh, s.kw = kw, s.sh = sh, s.sw = sw;
  s.pad_top = pad[0], s.pad_bottom = pad[1], s.pad_left = pad[2], s.pad_right = pad[3];
  auto acc = npusim::reference::direct_conv<std::int8_t, std::int32_t>(s, x.v, k.v);
  const std::uint32_t shift = npusim::default_requant_shift(std::uint64_t(kh) * kw * x.c);
  Tensor y{x.n, (x.h + pad[0] + pad[1] - kh) / sh + 1, (x.w + pad[2] + pad[3] - kw) / sw + 1, co, {}};
  for (auto a : acc) y.v.push_back(requant(a, shift, relu));
  return y;
}

}  // namespace npusim::layer_reference
