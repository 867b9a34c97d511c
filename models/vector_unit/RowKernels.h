#pragma once
#include <cstdint>

namespace npusim {

// The vector unit's transformer ops on int8 NHWC data, one position (row of `c`
// channels) at a time. Each computes in double precision and rounds half away from
// zero, then saturates to int8 (quantization rules: docs/workload-format.md, "Numbers").

// Softmax over each run of `segment` channels (a head's scores); input q means
// q / 2^frac_bits, output q = round(p * 128) capped at 127.
void vector_softmax(const std::int8_t* src, std::int8_t* dst, std::uint64_t rows, std::uint32_t c,
                    std::uint32_t segment, std::uint32_t frac_bits);
// (x - mean) / sqrt(var + 1e-5) over the c channels of a position (x in input units),
// output q = round(y * 32) (five fraction bits: +-4 standard deviations).
void vector_layernorm(const std::int8_t* src, std::int8_t* dst, std::uint64_t rows, std::uint32_t c);
// GELU (erf form) with input and output both q / 2^frac_bits.
void vector_gelu(const std::int8_t* src, std::int8_t* dst, std::uint64_t elements, std::uint32_t frac_bits);

// v rounded half away from zero, saturated to int8 (every op of this file and ActivationKernels.h).
std::int8_t rounded_int8(double v);

// Fraction bits of layernorm's output.
constexpr std::uint32_t kLayerNormFracBits = 5;

}  // namespace npusim
