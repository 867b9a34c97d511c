#include "sim/tensor/RandomTensor.h"

#include <cstring>

#include "sim/tensor/Half.h"

namespace npusim {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<std::uint8_t> random_tensor_bytes(DType type, std::uint64_t elements, std::uint64_t seed) {
  const std::size_t size = dtype_size(type);
  std::vector<std::uint8_t> bytes(elements * size);
  std::uint64_t state = seed;
  for (std::uint64_t i = 0; i < elements; ++i) {
    std::uint64_t r = splitmix64(state);
    std::uint8_t* dst = bytes.data() + i * size;
    if (type == DType::Float32 || type == DType::Float16) {
      float value = float(r >> 40) / float(1u << 23) - 1.0f;
      if (type == DType::Float32) {
        std::memcpy(dst, &value, 4);
      } else {
        std::uint16_t half = float_to_half(value);
        std::memcpy(dst, &half, 2);
      }
    } else {
      std::memcpy(dst, &r, size);  // little-endian: the low bytes
    }
  }
  return bytes;
}

}  // namespace npusim
