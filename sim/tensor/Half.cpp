#include "sim/tensor/Half.h"

#include <cstring>

namespace npusim {

float half_to_float(std::uint16_t h) {
  std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  std::uint32_t exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ffu, bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: renormalise
    int shift = 0;
    while (!(mantissa & 0x400u)) {
      mantissa <<= 1;
      ++shift;
    }
    bits = sign | (std::uint32_t(113 - shift) << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::uint16_t float_to_half(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  std::uint32_t abs = bits & 0x7fffffffu;
  if (abs >= 0x7f800000u) return sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u);  // inf / nan
  if (abs >= 0x477ff000u) return sign | 0x7c00u;                                     // overflow
  if (abs < 0x33000001u) return sign;                                                // underflow to zero
  std::uint32_t exponent = abs >> 23;
  std::uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
  int shift = exponent < 113 ? int(126 - exponent) : 13;  // subnormal halves shift further
  std::uint32_t half_mantissa = mantissa >> shift;
  std::uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half_mantissa & 1u))) ++half_mantissa;
  if (exponent < 113) return sign | static_cast<std::uint16_t>(half_mantissa);
  return sign | static_cast<std::uint16_t>(((exponent - 112) << 10) + (half_mantissa - 0x400u));
}

}  // namespace npusim
