#include "models/vector_unit/VectorKernels.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace npusim {

namespace {

template <typename T>
T load(const std::uint8_t* p, std::uint64_t i) {
  T v;
  std::memcpy(&v, p + i * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
void store(std::uint8_t* p, std::uint64_t i, T v) {
  std::memcpy(p + i * sizeof(T), &v, sizeof(T));
}

template <typename T>
T saturate(std::int64_t v) {
  return static_cast<T>(std::clamp<std::int64_t>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

template <typename T>
void relu_as(const std::uint8_t* src, std::uint8_t* dst, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) {
    T v = load<T>(src, i);
    store<T>(dst, i, v > T(0) ? v : T(0));
  }
}

template <typename T>
void add_integers(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* dst, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i)
    store<T>(dst, i, saturate<T>(std::int64_t(load<T>(a, i)) + std::int64_t(load<T>(b, i))));
}

}  // namespace

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

void vector_relu(DType type, const std::uint8_t* src, std::uint8_t* dst, std::uint64_t n) {
  switch (type) {
    case DType::Int8: return relu_as<std::int8_t>(src, dst, n);
    case DType::UInt8: return relu_as<std::uint8_t>(src, dst, n);
    case DType::Int16: return relu_as<std::int16_t>(src, dst, n);
    case DType::Int32: return relu_as<std::int32_t>(src, dst, n);
    case DType::Float32: return relu_as<float>(src, dst, n);
    case DType::Float16:
      for (std::uint64_t i = 0; i < n; ++i) {
        std::uint16_t h = load<std::uint16_t>(src, i);
        store<std::uint16_t>(dst, i, (h & 0x8000u) ? std::uint16_t(0) : h);
      }
      return;
  }
}

void vector_add(DType type, const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* dst, std::uint64_t n) {
  switch (type) {
    case DType::Int8: return add_integers<std::int8_t>(a, b, dst, n);
    case DType::UInt8: return add_integers<std::uint8_t>(a, b, dst, n);
    case DType::Int16: return add_integers<std::int16_t>(a, b, dst, n);
    case DType::Int32: return add_integers<std::int32_t>(a, b, dst, n);
    case DType::Float32:
      for (std::uint64_t i = 0; i < n; ++i) store<float>(dst, i, load<float>(a, i) + load<float>(b, i));
      return;
    case DType::Float16:
      for (std::uint64_t i = 0; i < n; ++i) {
        float sum = half_to_float(load<std::uint16_t>(a, i)) + half_to_float(load<std::uint16_t>(b, i));
        store<std::uint16_t>(dst, i, float_to_half(sum));
      }
      return;
  }
}

}  // namespace npusim
