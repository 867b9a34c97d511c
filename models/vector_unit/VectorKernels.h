#pragma once
#include <cstdint>

#include "sim/tensor/DType.h"

namespace npusim {

// The vector unit's element-wise arithmetic on raw little-endian bytes, kept as
// plain loops so functional runs stay fast. Integer results saturate to the
// element type, as fixed-point NPUs do; float16 is computed in float32 and
// rounded back to nearest-even.
void vector_relu(DType type, const std::uint8_t* src, std::uint8_t* dst, std::uint64_t elements);
void vector_add(DType type, const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* dst,
                std::uint64_t elements);

}  // namespace npusim
