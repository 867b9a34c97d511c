// The vector unit's upsampling op and its params (UpsampleKernels.h).
#include <stdexcept>

#include <fmt/format.h>

#include "models/vector_unit/UpsampleKernels.h"
#include "models/vector_unit/VectorOps.h"
#include "sim/common/JsonInteger.h"
#include "sim/trace/OpChecks.h"

namespace npusim {

namespace {


std::optional<OpProblem> read_resampling(const nlohmann::json& params, Resampling& r) {
  const std::string mode = params.value("mode", std::string("nearest"));
  if (mode != "nearest" && mode != "bilinear") return OpProblem{"params.mode", "must be \"nearest\" or \"bilinear\""};
  r.bilinear = mode == "bilinear";
  const auto coords = resize_coords_named(params.value("coordinates", std::string("half_pixel")));
  if (!coords)
    return OpProblem{"params.coordinates", "must be half_pixel, pytorch_half_pixel, asymmetric or align_corners"};
  r.coords = *coords;
  const auto nearest = nearest_round_named(params.value("nearest_mode", std::string("floor")));
  if (!nearest) return OpProblem{"params.nearest_mode", "must be floor, round_prefer_floor, round_prefer_ceil or ceil"};
  r.nearest = *nearest;
  return std::nullopt;
}

// The band's place in the whole maps: map [in_h, in_w, out_h, out_w], rows [in_row0, out_row0].
std::optional<OpProblem> read_band(const Instruction& ins, UpsampleBand& b) {
  std::vector<std::uint64_t> map = {1, 1, 1, 1}, rows = {0, 0};
  if (auto p = read_int_list(ins.params, "map", 4, 1, map)) return p;
  if (auto p = read_int_list(ins.params, "rows", 2, 0, rows)) return p;
  const Shape& x = ins.inputs[0].shape;
  const Shape& y = ins.outputs[0].shape;
  b = {{}, std::uint32_t(map[0]), std::uint32_t(map[1]), std::uint32_t(map[2]), std::uint32_t(map[3]),
       std::uint32_t(rows[0]), std::uint32_t(x[1]), std::uint32_t(rows[1]), std::uint32_t(y[1]), std::uint32_t(x[3])};
  if (x[1] == 0 || y[1] == 0) return OpProblem{"inputs[0].shape", "a band has at least one row"};
  if (x[0] != 1 || y[0] != 1 || x[2] != map[1] || y[2] != map[3] || y[3] != x[3])
    return OpProblem{"outputs[0].shape", "must be [1, rows, out_w, c] of an input [1, rows, in_w, c] (params.map)"};
  if (rows[0] + x[1] > map[0] || rows[1] + y[1] > map[2])
    return OpProblem{"params.rows", "the band's rows must lie within the maps"};
  return read_resampling(ins.params, b.resampling);
}

std::optional<OpProblem> upsample(const Instruction& ins) {
  if (auto p = rank4(ins.inputs[0], "inputs[0]", "upsample", "[1, rows, in_w, c]")) return p;
  if (auto p = rank4(ins.outputs[0], "outputs[0]", "upsample", "[1, rows, out_w, c]")) return p;
  for (const auto* t : {&ins.inputs[0], &ins.outputs[0]})
    if (auto p = needs_dtype(*t, t == &ins.inputs[0] ? "inputs[0]" : "outputs[0]", DType::Int8)) return p;
  UpsampleBand b;
  if (auto p = read_band(ins, b)) return p;
  const auto [first, last] =
      resize_source_rows(b.resampling, b.in_h, b.out_h, b.out_row0, b.out_row0 + b.out_rows - 1);
  if (first < b.in_row0 || last >= b.in_row0 + b.in_rows)
    return OpProblem{"inputs[0].shape", fmt::format("the output rows read input rows {} to {}, outside the band's {} "
                                                    "to {}", first, last, b.in_row0, b.in_row0 + b.in_rows - 1)};
  return std::nullopt;
}

}  // namespace

UpsampleBand upsample_band_of(const Instruction& ins) {
  UpsampleBand b;
  if (auto p = read_band(ins, b)) throw std::logic_error("upsample: " + p->field + ": " + p->reason);
  return b;
}

std::vector<OpSpec> upsample_ops() {
  return {{"upsample", "vector", {{"source", {kNram}}}, {{"result", {kNram}}},
           {"mode", "coordinates", "nearest_mode", "map", "rows"}, upsample}};
}

}  // namespace npusim
