#include "models/shader_core/ShaderOps.h"

#include <fmt/format.h>

#include "models/fetch_ml/TileParams.h"
#include "sim/common/JsonInteger.h"
#include "sim/trace/OpChecks.h"

namespace npusim {

namespace {

constexpr auto kRf = AddressSpace::Rf;

std::optional<OpProblem> result_dtype(const Instruction& ins) {
  const DType in = ins.inputs[0].dtype;
  if (in != DType::Int8 && in != DType::Float32)
    return OpProblem{"inputs[0].dtype", fmt::format("ml_matmul takes int8 or float32, got {}", dtype_name(in))};
  if (ins.inputs[1].dtype != in)
    return OpProblem{"inputs[1].dtype", fmt::format("weights are {} but the image is {}",
                                                    dtype_name(ins.inputs[1].dtype), dtype_name(in))};
  const bool requant = ins.params.contains("shift");
  if (requant && in != DType::Int8) return OpProblem{"params.shift", "only int8 results are requantized"};
  if (ins.params.contains("shift") && !json_integer(ins.params["shift"], 0, 31))
    return OpProblem{"params.shift", "must be an integer from 0 to 31"};
  if (ins.params.contains("relu") && !ins.params["relu"].is_boolean())
    return OpProblem{"params.relu", "must be true or false"};
  const DType want = in == DType::Float32 ? DType::Float32 : requant ? DType::Int8 : DType::Int32;
  if (ins.outputs[0].dtype != want)
    return OpProblem{"outputs[0].dtype", fmt::format("must be {} here, got {}", dtype_name(want),
                                                     dtype_name(ins.outputs[0].dtype))};
  return requant_params(ins);  // the bias
}

std::optional<OpProblem> ml_matmul(const Instruction& ins) {
  MlTile tile;
  if (auto p = read_ml_tile(ins.params, tile)) return p;
  if (auto p = require_param(ins.params, "positions")) return p;
  if (auto p = require_param(ins.params, "filters")) return p;
  if (auto p = result_dtype(ins)) return p;
  const Shape& w = ins.inputs[1].shape;
  if (w.size() != 2 || w[0] != tile.filters)
    return OpProblem{"inputs[1].shape", fmt::format("weights are [filters, K] with {} filters", tile.filters)};
  const Shape& x = ins.inputs[0].shape;
  if (x.size() == 2 && x != Shape{tile.positions.count, w[1]})
    return OpProblem{"inputs[0].shape", fmt::format("an unrolled image tile is [positions, K] = [{}, {}]",
                                                    tile.positions.count, w[1])};
  if (x.size() != 2 && x.size() != 3)
    return OpProblem{"inputs[0].shape", "must be [positions, K] (unrolled) or [rows, wi, ci] (compact)"};
  const Shape want = {tile.positions.count, tile.filters};
  if (ins.outputs[0].shape != want)
    return OpProblem{"outputs[0].shape", fmt::format("results are [positions, filters] = {}, got {}",
                                                     shape_text(want), shape_text(ins.outputs[0].shape))};
  return std::nullopt;
}

}  // namespace

std::vector<OpSpec> shader_core_ops() {
  return {{"ml_matmul", "shader", {{"image", {kRf}}, {"weights", {kRf}}}, {{"results", {kRf}}},
           {"image", "positions", "filters", "shift", "relu", "bias"}, ml_matmul}};
}

}  // namespace npusim
