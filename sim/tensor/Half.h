#pragma once
#include <cstdint>

namespace npusim {

// IEEE 754 binary16 <-> binary32, rounding to nearest-even, for float16 tensors.
float half_to_float(std::uint16_t h);
std::uint16_t float_to_half(float f);

}  // namespace npusim
