#pragma once
#include <cstdint>

#include "sim/tensor/DType.h"
#include "sim/tensor/WindowGeometry.h"

namespace npusim {

// The vector unit's element-wise arithmetic on raw little-endian bytes, kept as
// plain loops so functional runs stay fast. Integer results saturate to the
// element type, as fixed-point NPUs do; float16 is computed in float32 and
// rounded back to nearest-even.
void vector_relu(DType type, const std::uint8_t* src, std::uint8_t* dst, std::uint64_t elements);
void vector_add(DType type, const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* dst,
                std::uint64_t elements);

// A sliding window over an NHWC int8 map [n hi wi c] with one output channel per
// input channel (pooling, depthwise); output [n ho wo c].
struct ChannelWindow : WindowGeometry {
  std::uint32_t c = 0;
};

// int32 accumulators -> int8: add the output channel's int32 bias (element i is channel
// i % channels, channels-innermost; no bias when `bias` is null), round half up after an
// arithmetic right shift by `shift`, optionally clamp negatives to 0, then saturate.
void vector_requant(const std::uint8_t* src, std::uint8_t* dst, std::uint64_t elements, std::uint32_t shift,
                    bool relu, const std::int32_t* bias = nullptr, std::uint64_t channels = 1);
// int8 pooling. Padding positions are skipped; avg divides by the count of real
// positions in the window, rounding half up (floor((2*sum + count) / (2*count))).
void vector_pool(const ChannelWindow& g, bool max, const std::uint8_t* src, std::uint8_t* dst);
// int8 depthwise convolution, weights [kh kw c], int32 output (one filter per channel).
void vector_depthwise(const ChannelWindow& g, const std::uint8_t* src, const std::uint8_t* weights,
                      std::uint8_t* dst);

}  // namespace npusim
