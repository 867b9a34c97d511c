#include "sim/tensor/ResizeGeometry.h"

#include <algorithm>

namespace npusim {

namespace {

struct Fraction {
  std::int64_t num = 0, den = 1;
};

// The output index's position in input coordinates, ONNX Resize's formulas with the
// scale taken as out / in (the size the layer has).
Fraction source_coordinate(ResizeCoords coords, std::int64_t in, std::int64_t out, std::int64_t o) {
  switch (coords) {
    case ResizeCoords::PytorchHalfPixel:
      if (out == 1) return {0, 1};
      [[fallthrough]];
    case ResizeCoords::HalfPixel: return {(2 * o + 1) * in - out, 2 * out};
    case ResizeCoords::Asymmetric: return {o * in, out};
    case ResizeCoords::AlignCorners: return out == 1 ? Fraction{0, 1} : Fraction{o * (in - 1), out - 1};
  }
  return {0, 1};
}

}  // namespace

ResizeTap resize_tap(ResizeCoords coords, std::uint32_t in, std::uint32_t out, std::uint32_t o) {
  const Fraction x = source_coordinate(coords, in, out, o);
  ResizeTap t;
  t.denom = std::uint64_t(x.den);
  if (x.num <= 0) return t;  // left of the first input: its value
  t.lo = std::uint32_t(x.num / x.den);
  t.frac = std::uint64_t(x.num % x.den);
  if (t.lo >= in - 1) return {in - 1, in - 1, 0, t.denom};  // right of the last: its value
  t.hi = t.lo + 1;
  return t;
}

std::uint32_t nearest_source(const Resampling& r, std::uint32_t in, std::uint32_t out, std::uint32_t o) {
  const ResizeTap t = resize_tap(r.coords, in, out, o);
  const std::uint64_t twice = 2 * t.frac;
  bool up = false;
  switch (r.nearest) {
    case NearestRound::Floor: up = false; break;
    case NearestRound::RoundPreferFloor: up = twice > t.denom; break;
    case NearestRound::RoundPreferCeil: up = twice >= t.denom; break;
    case NearestRound::Ceil: up = t.frac > 0; break;
  }
  return up ? t.hi : t.lo;
}

std::pair<std::uint32_t, std::uint32_t> resize_source_rows(const Resampling& r, std::uint32_t in, std::uint32_t out,
                                                           std::uint32_t o0, std::uint32_t o1) {
  if (!r.bilinear) return {nearest_source(r, in, out, o0), nearest_source(r, in, out, o1)};
  return {resize_tap(r.coords, in, out, o0).lo, resize_tap(r.coords, in, out, o1).hi};
}

std::optional<ResizeCoords> resize_coords_named(const std::string& name) {
  for (auto c : {ResizeCoords::HalfPixel, ResizeCoords::PytorchHalfPixel, ResizeCoords::Asymmetric,
                 ResizeCoords::AlignCorners})
    if (name == resize_coords_name(c)) return c;
  return std::nullopt;
}

std::optional<NearestRound> nearest_round_named(const std::string& name) {
  for (auto r : {NearestRound::Floor, NearestRound::RoundPreferFloor, NearestRound::RoundPreferCeil, NearestRound::Ceil})
    if (name == nearest_round_name(r)) return r;
  return std::nullopt;
}

const char* resize_coords_name(ResizeCoords c) {
  switch (c) {
    case ResizeCoords::HalfPixel: return "half_pixel";
    case ResizeCoords::PytorchHalfPixel: return "pytorch_half_pixel";
    case ResizeCoords::Asymmetric: return "asymmetric";
    case ResizeCoords::AlignCorners: return "align_corners";
  }
  return "?";
}

const char* nearest_round_name(NearestRound r) {
  switch (r) {
    case NearestRound::Floor: return "floor";
    case NearestRound::RoundPreferFloor: return "round_prefer_floor";
    case NearestRound::RoundPreferCeil: return "round_prefer_ceil";
    case NearestRound::Ceil: return "ceil";
  }
  return "?";
}

}  // namespace npusim
