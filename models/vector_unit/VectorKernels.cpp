#include "models/vector_unit/VectorKernels.h"

#include "sim/tensor/ElementAccess.h"
#include "sim/tensor/Half.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

namespace npusim {

namespace {


template <typename T>
T saturate(std::int64_t v) {
  return static_cast<T>(std::clamp<std::int64_t>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

template <typename T>
void relu_as(const std::uint8_t* src, std::uint8_t* dst, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) {
    T v = load_element<T>(src, i);
    store_element<T>(dst, i, v > T(0) ? v : T(0));
  }
}

template <typename T>
void add_integers(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* dst, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i)
    store_element<T>(dst, i, saturate<T>(std::int64_t(load_element<T>(a, i)) + std::int64_t(load_element<T>(b, i))));
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
        std::uint16_t h = load_element<std::uint16_t>(src, i);
        store_element<std::uint16_t>(dst, i, (h & 0x8000u) ? std::uint16_t(0) : h);
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
      for (std::uint64_t i = 0; i < n; ++i) store_element<float>(dst, i, load_element<float>(a, i) + load_element<float>(b, i));
      return;
    case DType::Float16:
      for (std::uint64_t i = 0; i < n; ++i) {
        float sum = half_to_float(load_element<std::uint16_t>(a, i)) + half_to_float(load_element<std::uint16_t>(b, i));
        store_element<std::uint16_t>(dst, i, float_to_half(sum));
      }
      return;
  }
}

void vector_requant(const std::uint8_t* src, std::uint8_t* dst, std::uint64_t n, std::uint32_t shift, bool relu,
                    const std::int32_t* bias, std::uint64_t channels) {
  const std::int64_t half = shift == 0 ? 0 : std::int64_t(1) << (shift - 1);
  for (std::uint64_t i = 0; i < n; ++i) {
    // int64: an int32 sum plus an int32 bias cannot overflow before the shift.
    const std::int64_t biased = std::int64_t(load_element<std::int32_t>(src, i)) + (bias ? bias[i % channels] : 0);
    std::int64_t v = (biased + half) >> shift;
    if (relu && v < 0) v = 0;
    store_element<std::int8_t>(dst, i, saturate<std::int8_t>(v));
  }
}

namespace {

// Calls visit(out_index, channel, in_index, tap) for every real (non-padding) tap.
template <typename Visit, typename Finish>
void slide_window(const ChannelWindow& g, Visit visit, Finish finish) {
  const long ho = g.ho(), wo = g.wo();
  for (long b = 0; b < long(g.n); ++b)
    for (long oh = 0; oh < ho; ++oh)
      for (long ow = 0; ow < wo; ++ow) {
        const std::uint64_t out = ((std::uint64_t(b) * ho + oh) * wo + ow) * g.c;
        for (long kh = 0; kh < long(g.kh); ++kh) {
          const long h = oh * g.sh + kh - long(g.pad_top);
          if (h < 0 || h >= long(g.hi)) continue;
          for (long kw = 0; kw < long(g.kw); ++kw) {
            const long w = ow * g.sw + kw - long(g.pad_left);
            if (w < 0 || w >= long(g.wi)) continue;
            const std::uint64_t in = ((std::uint64_t(b) * g.hi + h) * g.wi + w) * g.c;
            visit(out, in, std::uint64_t(kh) * g.kw + kw);
          }
        }
        finish(out);
      }
}

}  // namespace

void vector_pool(const ChannelWindow& g, bool max, const std::uint8_t* src, std::uint8_t* dst) {
  std::vector<std::int64_t> acc(g.c);
  std::int64_t count = 0;
  auto reset = [&] {
    std::fill(acc.begin(), acc.end(), max ? std::numeric_limits<std::int64_t>::min() : 0);
    count = 0;
  };
  reset();
  slide_window(
      g,
      [&](std::uint64_t, std::uint64_t in, std::uint64_t) {
        ++count;
        for (std::uint32_t c = 0; c < g.c; ++c) {
          const std::int64_t v = load_element<std::int8_t>(src, in + c);
          acc[c] = max ? std::max(acc[c], v) : acc[c] + v;
        }
      },
      [&](std::uint64_t out) {
        for (std::uint32_t c = 0; c < g.c; ++c) {
          std::int64_t v = 0;
          if (count > 0) {
            if (max) {
              v = acc[c];
            } else {
              const std::int64_t num = 2 * acc[c] + count, den = 2 * count;
              v = num >= 0 ? num / den : -((-num + den - 1) / den);  // floor division
            }
          }
          store_element<std::int8_t>(dst, out + c, saturate<std::int8_t>(v));
        }
        reset();
      });
}

void vector_depthwise(const ChannelWindow& g, const std::uint8_t* src, const std::uint8_t* weights,
                      std::uint8_t* dst) {
  std::vector<std::int32_t> acc(g.c, 0);
  slide_window(
      g,
      [&](std::uint64_t, std::uint64_t in, std::uint64_t tap) {
        for (std::uint32_t c = 0; c < g.c; ++c)
          acc[c] += std::int32_t(load_element<std::int8_t>(src, in + c)) * load_element<std::int8_t>(weights, tap * g.c + c);
      },
      [&](std::uint64_t out) {
        for (std::uint32_t c = 0; c < g.c; ++c) store_element<std::int32_t>(dst, out + c, acc[c]);
        std::fill(acc.begin(), acc.end(), 0);
      });
}

}  // namespace npusim
