#pragma once
#include <cstdint>
#include <string>

namespace npusim {

// The vector unit's activations and element-wise products on int8 data (quantization
// rules: docs/workload-format.md, "Activations and elementwise"). The activations read
// q as x = q / 2^frac_bits, compute in double precision, round half away from zero
// and saturate to int8, as the transformer ops (RowKernels.h) do.

// The activation ops, by trace op name.
bool is_activation_op(const std::string& op);
// Output fraction bits of an activation: 7 for the bounded ones (sigmoid,
// hardsigmoid, tanh: |y| <= 1), else the input's (silu, hardswish: y ~ x).
std::uint32_t activation_out_frac_bits(const std::string& op, std::uint32_t frac_bits);
// y = f(x) element by element; `op` is one of the activation ops.
void vector_activation(const std::string& op, const std::int8_t* src, std::int8_t* dst, std::uint64_t elements,
                       std::uint32_t frac_bits);
// The functions themselves, in real numbers (also the tests' and the importer's reference).
double activation_value(const std::string& op, double x);

// Product of two int8 tensors: y = sat8((a * b + 2^(shift - 1)) >> shift), the
// requantization rule. b holds either one value per element of a or one per channel
// (`b_channels` = c, read again for every position of a: a gate broadcast over h x w;
// 0 when b is a's shape);
// images of `image_elements` elements each take their own gate.
void vector_mul(const std::int8_t* a, const std::int8_t* b, std::int8_t* dst, std::uint64_t elements,
                std::uint64_t b_channels, std::uint64_t image_elements, std::uint32_t shift);

// y = keep[i] != 0 ? x[i] : fill.
void vector_mask(const std::int8_t* x, const std::int8_t* keep, std::int8_t* dst, std::uint64_t elements,
                 std::int8_t fill);

}  // namespace npusim
