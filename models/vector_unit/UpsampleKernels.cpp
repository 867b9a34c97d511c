#include "models/vector_unit/UpsampleKernels.h"

#include <vector>

namespace npusim {

namespace {

// num / den rounded half away from zero (den > 0).
std::int64_t rounded_quotient(std::int64_t num, std::int64_t den) {
  return num >= 0 ? (2 * num + den) / (2 * den) : -((-2 * num + den) / (2 * den));
}

void bilinear_row(const UpsampleBand& b, const ResizeTap& y, const std::vector<ResizeTap>& xs, const std::int8_t* src,
                  std::int8_t* dst) {
  const std::size_t row = std::size_t(b.in_w) * b.c;
  const std::int8_t* top = src + std::size_t(y.lo - b.in_row0) * row;
  const std::int8_t* bottom = src + std::size_t(y.hi - b.in_row0) * row;
  const auto wy0 = std::int64_t(y.denom - y.frac), wy1 = std::int64_t(y.frac);
  for (std::uint32_t ox = 0; ox < b.out_w; ++ox) {
    const ResizeTap& x = xs[ox];
    const auto wx0 = std::int64_t(x.denom - x.frac), wx1 = std::int64_t(x.frac);
    const std::int64_t den = std::int64_t(y.denom * x.denom);
    for (std::uint32_t ch = 0; ch < b.c; ++ch) {
      const std::int64_t upper = wx0 * top[x.lo * b.c + ch] + wx1 * top[x.hi * b.c + ch];
      const std::int64_t lower = wx0 * bottom[x.lo * b.c + ch] + wx1 * bottom[x.hi * b.c + ch];
      *dst++ = std::int8_t(rounded_quotient(wy0 * upper + wy1 * lower, den));
    }
  }
}

void nearest_row(const UpsampleBand& b, std::uint32_t source_row, const std::vector<std::uint32_t>& xs,
                 const std::int8_t* src, std::int8_t* dst) {
  const std::int8_t* from = src + std::size_t(source_row - b.in_row0) * b.in_w * b.c;
  for (std::uint32_t ox = 0; ox < b.out_w; ++ox)
    for (std::uint32_t ch = 0; ch < b.c; ++ch) *dst++ = from[std::size_t(xs[ox]) * b.c + ch];
}

}  // namespace

void vector_upsample(const UpsampleBand& b, const std::int8_t* src, std::int8_t* dst) {
  const std::size_t out_row = std::size_t(b.out_w) * b.c;
  std::vector<ResizeTap> taps(b.out_w);
  std::vector<std::uint32_t> nearest(b.out_w);
  for (std::uint32_t ox = 0; ox < b.out_w; ++ox) {
    taps[ox] = resize_tap(b.resampling.coords, b.in_w, b.out_w, ox);
    nearest[ox] = nearest_source(b.resampling, b.in_w, b.out_w, ox);
  }
  for (std::uint32_t r = 0; r < b.out_rows; ++r) {
    const std::uint32_t oy = b.out_row0 + r;
    if (b.resampling.bilinear)
      bilinear_row(b, resize_tap(b.resampling.coords, b.in_h, b.out_h, oy), taps, src, dst + r * out_row);
    else
      nearest_row(b, nearest_source(b.resampling, b.in_h, b.out_h, oy), nearest, src, dst + r * out_row);
  }
}

}  // namespace npusim
