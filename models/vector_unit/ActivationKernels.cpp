#include "models/vector_unit/ActivationKernels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "models/vector_unit/RowKernels.h"

namespace npusim {

namespace {
constexpr std::uint32_t kBoundedFracBits = 7;  // |y| <= 1 in steps of 1/128, as softmax's output

double hard_sigmoid(double x) { return std::clamp(x / 6 + 0.5, 0.0, 1.0); }  // PyTorch's: relu6(x + 3) / 6
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
}  // namespace

bool is_activation_op(const std::string& op) {
  return op == "sigmoid" || op == "hardsigmoid" || op == "hardswish" || op == "silu" || op == "tanh";
}

std::uint32_t activation_out_frac_bits(const std::string& op, std::uint32_t frac_bits) {
  return op == "silu" || op == "hardswish" ? frac_bits : kBoundedFracBits;
}

double activation_value(const std::string& op, double x) {
  if (op == "sigmoid") return sigmoid(x);
  if (op == "hardsigmoid") return hard_sigmoid(x);
  if (op == "hardswish") return x * hard_sigmoid(x);
  if (op == "silu") return x * sigmoid(x);
  if (op == "tanh") return std::tanh(x);
  throw std::logic_error("no activation '" + op + "'");
}

void vector_activation(const std::string& op, const std::int8_t* src, std::int8_t* dst, std::uint64_t elements,
                       std::uint32_t frac_bits) {
  // An int8 input has 256 values: the unit's lookup table, filled once per instruction.
  const double in_step = std::ldexp(1.0, -int(frac_bits));
  const double out_scale = std::ldexp(1.0, int(activation_out_frac_bits(op, frac_bits)));
  std::array<std::int8_t, 256> table{};
  for (int q = -128; q < 128; ++q)
    table[std::size_t(q + 128)] = rounded_int8(activation_value(op, q * in_step) * out_scale);
  for (std::uint64_t i = 0; i < elements; ++i) dst[i] = table[std::size_t(src[i] + 128)];
}

void vector_mul(const std::int8_t* a, const std::int8_t* b, std::int8_t* dst, std::uint64_t elements,
                std::uint64_t b_channels, std::uint64_t image_elements, std::uint32_t shift) {
  const std::int32_t half = shift == 0 ? 0 : std::int32_t(1) << (shift - 1);
  const bool broadcast = b_channels != 0;
  for (std::uint64_t i = 0; i < elements; ++i) {
    const std::uint64_t j = broadcast ? i / image_elements * b_channels + i % b_channels : i;
    const std::int32_t v = (std::int32_t(a[i]) * b[j] + half) >> shift;
    dst[i] = std::int8_t(std::clamp(v, -128, 127));
  }
}

void vector_mask(const std::int8_t* x, const std::int8_t* keep, std::int8_t* dst, std::uint64_t elements,
                 std::int8_t fill) {
  for (std::uint64_t i = 0; i < elements; ++i) dst[i] = keep[i] != 0 ? x[i] : fill;
}

}  // namespace npusim
