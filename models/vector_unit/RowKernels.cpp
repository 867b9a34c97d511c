#include "models/vector_unit/RowKernels.h"

#include <algorithm>
#include <cmath>

namespace npusim {

std::int8_t rounded_int8(double v) { return std::int8_t(std::clamp<double>(std::round(v), -128, 127)); }

void vector_softmax(const std::int8_t* src, std::int8_t* dst, std::uint64_t rows, std::uint32_t c,
                    std::uint32_t segment, std::uint32_t frac_bits) {
  const double scale = std::ldexp(1.0, -int(frac_bits));
  for (std::uint64_t s = 0; s < rows * c; s += segment) {
    const std::int8_t* x = src + s;
    const std::int8_t top = *std::max_element(x, x + segment);  // subtracted so exp never overflows
    double sum = 0;
    for (std::uint32_t i = 0; i < segment; ++i) sum += std::exp((x[i] - top) * scale);
    for (std::uint32_t i = 0; i < segment; ++i) dst[s + i] = rounded_int8(std::exp((x[i] - top) * scale) / sum * 128);
  }
}

void vector_layernorm(const std::int8_t* src, std::int8_t* dst, std::uint64_t rows, std::uint32_t c) {
  for (std::uint64_t r = 0; r < rows; ++r) {
    const std::int8_t* x = src + r * c;
    double mean = 0, var = 0;
    for (std::uint32_t i = 0; i < c; ++i) mean += x[i];
    mean /= c;
    for (std::uint32_t i = 0; i < c; ++i) var += (x[i] - mean) * (x[i] - mean);
    const double inv = 1.0 / std::sqrt(var / c + 1e-5);
    for (std::uint32_t i = 0; i < c; ++i) dst[r * c + i] = rounded_int8((x[i] - mean) * inv * (1 << kLayerNormFracBits));
  }
}

void vector_gelu(const std::int8_t* src, std::int8_t* dst, std::uint64_t elements, std::uint32_t frac_bits) {
  const double scale = std::ldexp(1.0, -int(frac_bits));
  for (std::uint64_t i = 0; i < elements; ++i) {
    const double x = src[i] * scale;
    dst[i] = rounded_int8(0.5 * x * (1 + std::erf(x / std::sqrt(2.0))) / scale);
  }
}

}  // namespace npusim
