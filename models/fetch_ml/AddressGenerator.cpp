#include "models/fetch_ml/AddressGenerator.h"

#include <algorithm>

namespace npusim {

namespace {
// Input coordinates of unrolled entry (j, k); false when they fall in the padding.
bool input_coordinates(const ConvShape& g, std::uint64_t j, std::uint64_t k, std::int64_t& y, std::int64_t& x,
                       std::uint64_t& c) {
  const std::uint64_t wo = g.wo();
  const std::uint64_t oy = j / wo, ox = j % wo;
  c = k % g.ci;
  const std::uint64_t tap = k / g.ci;
  const std::uint64_t ky = tap / g.kw, kx = tap % g.kw;
  y = std::int64_t(oy * g.sh + ky) - g.pad_top;
  x = std::int64_t(ox * g.sw + kx) - g.pad_left;
  return y >= 0 && y < std::int64_t(g.hi) && x >= 0 && x < std::int64_t(g.wi);
}
}  // namespace

std::int64_t AddressGenerator::im2col_element(const ConvShape& g, std::uint32_t image, std::uint64_t j,
                                              std::uint64_t k) {
  std::int64_t y = 0, x = 0;
  std::uint64_t c = 0;
  if (!input_coordinates(g, j, k, y, x, c)) return -1;
  return std::int64_t(((std::uint64_t(image) * g.hi + std::uint64_t(y)) * g.wi + std::uint64_t(x)) * g.ci + c);
}

std::int64_t AddressGenerator::patch_element(const ConvShape& g, const InputRows& rows, std::uint64_t j,
                                             std::uint64_t k) {
  std::int64_t y = 0, x = 0;
  std::uint64_t c = 0;
  if (!input_coordinates(g, j, k, y, x, c)) return -1;
  return std::int64_t((std::uint64_t(y - rows.first) * g.wi + std::uint64_t(x)) * g.ci + c);
}

InputRows AddressGenerator::input_rows(const ConvShape& g, const PositionRange& p) {
  const std::uint64_t wo = g.wo();
  const std::uint64_t first_out = p.first / wo, last_out = (p.first + p.count - 1) / wo;
  const std::int64_t top = std::int64_t(first_out * g.sh) - g.pad_top;
  const std::int64_t bottom = std::int64_t(last_out * g.sh + g.kh) - g.pad_top;  // exclusive
  const std::int64_t lo = std::clamp<std::int64_t>(top, 0, g.hi), hi = std::clamp<std::int64_t>(bottom, 0, g.hi);
  return {std::uint32_t(lo), std::uint32_t(std::max<std::int64_t>(0, hi - lo))};
}

std::uint64_t AddressGenerator::return_offset(const ConvShape& g, std::uint64_t n, std::uint64_t h, std::uint64_t w,
                                              std::uint64_t c) {
  const std::uint64_t H = g.ho(), W = g.wo(), C = g.co;
  return n * H * W * C + h * W * C + w * C + c;
}

// Per output row touched: the real input columns under the segment's windows times
// the real rows under one window, times the channels.
std::uint64_t AddressGenerator::window_union_elements(const ConvShape& g, const PositionRange& p) {
  const std::uint64_t wo = g.wo();
  std::uint64_t total = 0;
  for (std::uint64_t j = p.first; j < p.first + p.count;) {
    const std::uint64_t oy = j / wo, x0 = j % wo;
    const std::uint64_t x1 = std::min<std::uint64_t>(wo, x0 + (p.first + p.count - j));  // exclusive
    const std::int64_t top = std::int64_t(oy * g.sh) - g.pad_top;
    const std::int64_t rows = std::min<std::int64_t>(top + g.kh, g.hi) - std::max<std::int64_t>(top, 0);
    const std::int64_t left = std::int64_t(x0 * g.sw) - g.pad_left;
    const std::int64_t right = std::int64_t((x1 - 1) * g.sw + g.kw) - g.pad_left;
    std::int64_t cols = std::min<std::int64_t>(right, g.wi) - std::max<std::int64_t>(left, 0);
    if (g.sw > g.kw) cols = std::int64_t(x1 - x0) * g.kw;  // windows do not touch: gaps are never read
    if (rows > 0 && cols > 0) total += std::uint64_t(rows) * std::uint64_t(cols) * g.ci;
    j += x1 - x0;
  }
  return total;
}

std::vector<PositionRange> AddressGenerator::position_runs(const ConvShape& g, std::uint64_t J, std::uint32_t image) {
  std::vector<PositionRange> runs;
  const std::uint64_t wo = g.wo(), positions = std::uint64_t(g.ho()) * wo;
  if (J >= wo) {
    for (std::uint64_t first = 0; first < positions; first += J)
      runs.push_back({image, first, std::min(J, positions - first)});
    return runs;
  }
  for (std::uint64_t row = 0; row < g.ho(); ++row)
    for (std::uint64_t x = 0; x < wo; x += J) runs.push_back({image, row * wo + x, std::min(J, wo - x)});
  return runs;
}

PositionRange AddressGenerator::next_run(const ConvShape& g, std::uint64_t J, const PositionRange& p) {
  const std::uint64_t wo = g.wo(), positions = std::uint64_t(g.ho()) * wo;
  const std::uint64_t next = p.first + p.count;
  if (next < positions) {
    const std::uint64_t room = J >= wo ? positions - next : wo - next % wo;
    return {p.image, next, std::min(J, room)};
  }
  const std::uint32_t image = p.image + 1 < g.n ? p.image + 1 : 0;
  return {image, 0, std::min(J, J >= wo ? positions : wo)};
}

std::vector<std::uint32_t> AddressGenerator::multiplicity_map(const ConvShape& g) {
  std::vector<std::uint32_t> count(std::uint64_t(g.hi) * g.wi, 0);
  const std::uint64_t positions = std::uint64_t(g.ho()) * g.wo(), taps = std::uint64_t(g.kh) * g.kw;
  for (std::uint64_t j = 0; j < positions; ++j)
    for (std::uint64_t t = 0; t < taps; ++t) {
      const std::int64_t e = im2col_element(g, 0, j, t * g.ci);  // channel 0
      if (e >= 0) ++count[std::uint64_t(e) / g.ci];
    }
  return count;
}

}  // namespace npusim
