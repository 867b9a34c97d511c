#pragma once
// Plain references for the transformer layers, written from the definitions in
// docs/workload-format.md ("Transformer layers", "Numbers"), not from the simulator's kernels.
#include <cmath>

#include "compiler/ReferenceLayers.h"

namespace npusim::layer_reference {

inline std::int8_t round8(double v) { return saturate(std::llround(v)); }

// Tensors as [rows = n*h*w, c]: heads are equal runs of channels.
inline Tensor softmax(const Tensor& x, std::uint32_t heads, std::uint32_t frac_bits) {
  Tensor y = x;
  const std::uint32_t seg = x.c / heads;
  const double unit = 1.0 / double(1u << frac_bits);
  for (std::size_t start = 0; start < x.v.size(); start += seg) {
    double top = -1e9, sum = 0;
    for (std::uint32_t i = 0; i < seg; ++i) top = std::max(top, x.v[start + i] * unit);
    for (std::uint32_t i = 0; i < seg; ++i) sum += std::exp(x.v[start + i] * unit - top);
    for (std::uint32_t i = 0; i < seg; ++i) y.v[start + i] = round8(128 * std::exp(x.v[start + i] * unit - top) / sum);
  }
  return y;
}

inline Tensor layernorm(const Tensor& x) {
  Tensor y = x;
  for (std::size_t start = 0; start < x.v.size(); start += x.c) {
    double sum = 0, sq = 0;
    for (std::uint32_t i = 0; i < x.c; ++i) sum += x.v[start + i];
    const double mean = sum / x.c;
    for (std::uint32_t i = 0; i < x.c; ++i) sq += (x.v[start + i] - mean) * (x.v[start + i] - mean);
    const double sd = std::sqrt(sq / x.c + 1e-5);
    for (std::uint32_t i = 0; i < x.c; ++i) y.v[start + i] = round8(32 * (x.v[start + i] - mean) / sd);
  }
  return y;
}

inline Tensor gelu(const Tensor& x, std::uint32_t frac_bits) {
  Tensor y = x;
  const double unit = 1.0 / double(1u << frac_bits);
  for (std::size_t i = 0; i < x.v.size(); ++i) {
    const double v = x.v[i] * unit;
    y.v[i] = round8(v * 0.5 * std::erfc(-v / std::sqrt(2.0)) / unit);
  }
  return y;
}

// Per image and head: A's rows x segment (m x k) times B (k x n, or n x k transposed).
// B's rows per image are `cache` rows (when given) followed by b's own.
inline Tensor matmul(const Tensor& a, const Tensor& b, const Tensor* cache, std::uint32_t heads, bool transpose_b,
                     std::uint32_t shift) {
  const std::uint64_t m = std::uint64_t(a.h) * a.w, k = a.c / heads, seg_b = b.c / heads;
  const std::uint64_t cached = cache ? std::uint64_t(cache->h) * cache->w : 0, rows_b = cached + std::uint64_t(b.h) * b.w;
  const std::uint64_t n = transpose_b ? rows_b : seg_b;
  auto b_at = [&](std::uint32_t img, std::uint64_t row, std::uint64_t col) -> std::int64_t {
    if (row < cached) return cache->v[(img * cached + row) * b.c + col];
    return b.v[(img * (rows_b - cached) + row - cached) * b.c + col];
  };
  Tensor y{a.n, a.h, a.w, std::uint32_t(n * heads), {}};
  for (std::uint32_t img = 0; img < a.n; ++img)
    for (std::uint64_t r = 0; r < m; ++r)
      for (std::uint32_t g = 0; g < heads; ++g)
        for (std::uint64_t j = 0; j < n; ++j) {
          std::int64_t acc = 0;
          for (std::uint64_t i = 0; i < k; ++i)
            acc += std::int64_t(a.v[(img * m + r) * a.c + g * k + i]) *
                   (transpose_b ? b_at(img, j, g * seg_b + i) : b_at(img, i, g * seg_b + j));
          y.v.push_back(requant(acc, shift, false));
        }
  return y;
}

}  // namespace npusim::layer_reference
