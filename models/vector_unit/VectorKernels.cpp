#include "models/vector_unit/VectorKernels.h"

#include "sim/tensor/Half.h"

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
