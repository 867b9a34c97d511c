#pragma once
#include <cstdint>

#include "sim/tensor/ResizeGeometry.h"

namespace npusim {

// One band of an upsampling (docs/workload-format.md, "Upsampling"): output rows
// [out_row0, out_row0 + out_rows) of an out_h x out_w map, read from input rows
// [in_row0, in_row0 + in_rows) of an in_h x in_w map, c channels, NHWC int8.
struct UpsampleBand {
  Resampling resampling;
  std::uint32_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  std::uint32_t in_row0 = 0, in_rows = 0, out_row0 = 0, out_rows = 0, c = 0;
};

// Nearest copies the source element; bilinear weighs the four around the source
// coordinate by its exact fractions and rounds the sum half away from zero: the real
// interpolation of the int8 values, correctly rounded (it never leaves int8).
void vector_upsample(const UpsampleBand& b, const std::int8_t* src, std::int8_t* dst);

struct Instruction;
// An upsample instruction's band (its params and shapes, already checked: UpsampleOps.cpp).
UpsampleBand upsample_band_of(const Instruction& ins);

}  // namespace npusim
