#pragma once
#include <cstdint>
#include <cstring>

namespace npusim {

// Element i of type T in a byte buffer (scratchpad bytes need not be aligned for T).
template <typename T>
T load_element(const std::uint8_t* p, std::uint64_t i) {
  T v;
  std::memcpy(&v, p + i * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
void store_element(std::uint8_t* p, std::uint64_t i, T v) {
  std::memcpy(p + i * sizeof(T), &v, sizeof(T));
}

}  // namespace npusim
