#pragma once
#include <cstdint>

#include "models/matrix_unit/ConvShape.h"

namespace npusim::test {

// A conv layer's shape as the seed writes its examples: input rows, columns and channels,
// output channels, kernel and stride; no padding, int8.
inline ConvShape conv(std::uint32_t hi, std::uint32_t wi, std::uint32_t ci, std::uint32_t co, std::uint32_t kh,
                      std::uint32_t kw, std::uint32_t sh = 1, std::uint32_t sw = 1) {
  ConvShape s;
  s.hi = hi, s.wi = wi, s.ci = ci, s.co = co, s.kh = kh, s.kw = kw, s.sh = sh, s.sw = sw;
  return s;
}

}  // namespace npusim::test
