#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace npusim {

// Where an output row or column of an upsampling reads its input (ONNX Resize's
// coordinate_transformation_mode and nearest_mode, docs/workload-format.md "Upsampling").
// Source coordinates are kept as exact fractions, so nearest and bilinear results are
// the same on every engine and in every reference.
enum class ResizeCoords { HalfPixel, PytorchHalfPixel, Asymmetric, AlignCorners };
enum class NearestRound { Floor, RoundPreferFloor, RoundPreferCeil, Ceil };

struct Resampling {
  bool bilinear = false;
  ResizeCoords coords = ResizeCoords::HalfPixel;
  NearestRound nearest = NearestRound::Floor;
};

// The two input indices an output index lies between, lo + frac / denom, both within the
// input (hi = lo at the last one); a coordinate left of 0 reads index 0.
struct ResizeTap {
  std::uint32_t lo = 0, hi = 0;
  std::uint64_t frac = 0, denom = 1;
};

ResizeTap resize_tap(ResizeCoords coords, std::uint32_t in, std::uint32_t out, std::uint32_t o);
// The one input index a nearest upsampling copies to output index o.
std::uint32_t nearest_source(const Resampling& r, std::uint32_t in, std::uint32_t out, std::uint32_t o);
// The input rows [first, last] that output rows [o0, o1] read.
std::pair<std::uint32_t, std::uint32_t> resize_source_rows(const Resampling& r, std::uint32_t in, std::uint32_t out,
                                                           std::uint32_t o0, std::uint32_t o1);

// Names as ONNX spells them ("half_pixel", "round_prefer_floor", ...); nullopt when unknown.
std::optional<ResizeCoords> resize_coords_named(const std::string& name);
std::optional<NearestRound> nearest_round_named(const std::string& name);
const char* resize_coords_name(ResizeCoords c);
const char* nearest_round_name(NearestRound r);

}  // namespace npusim
