// The vector unit's activation ops, its element-wise product and its mask (ActivationKernels.h).
#include <fmt/format.h>

#include "models/vector_unit/VectorOps.h"
#include "sim/common/JsonInteger.h"
#include "sim/trace/OpChecks.h"

namespace npusim {

namespace {


// sigmoid, hardsigmoid, hardswish, silu, tanh: int8 in and out, same shape.
std::optional<OpProblem> activation(const Instruction& ins) {
  if (auto p = elementwise(ins)) return p;
  if (auto p = needs_dtype(ins.inputs[0], "inputs[0]", DType::Int8)) return p;
  if (ins.params.contains("frac_bits") && !json_integer_as<std::uint32_t>(ins.params["frac_bits"], 0, 7))
    return OpProblem{"params.frac_bits", "must be an integer from 0 to 7"};
  return std::nullopt;
}

// rhs is lhs's shape, or [n, 1, 1, c]: one value per channel of each image (a gate).
std::optional<OpProblem> mul(const Instruction& ins) {
  for (const auto* t : {&ins.inputs[0], &ins.inputs[1], &ins.outputs[0]})
    if (auto p = needs_dtype(*t, t == &ins.outputs[0] ? "outputs[0]" : t == &ins.inputs[0] ? "inputs[0]" : "inputs[1]",
                             DType::Int8))
      return p;
  if (ins.outputs[0].shape != ins.inputs[0].shape) return OpProblem{"outputs[0].shape", "must equal inputs[0].shape"};
  const Shape& a = ins.inputs[0].shape;
  const Shape& b = ins.inputs[1].shape;
  const bool gate = a.size() == 4 && b == Shape{a[0], 1, 1, a[3]};
  if (b != a && !gate)
    return OpProblem{"inputs[1].shape", fmt::format("must be inputs[0]'s shape {} or one value per channel of each "
                                                    "image [n, 1, 1, c], got {}",
                                                    shape_text(a), shape_text(b))};
  return requant_params(ins);
}

// source and keep alike (int8); fill an int8 value.
std::optional<OpProblem> mask(const Instruction& ins) {
  if (auto p = elementwise(ins)) return p;
  if (auto p = needs_dtype(ins.inputs[0], "inputs[0]", DType::Int8)) return p;
  const nlohmann::json fill = ins.params.value("fill", nlohmann::json(-128));
  if (!fill.is_number_integer() || fill.get<std::int64_t>() < -128 || fill.get<std::int64_t>() > 127)
    return OpProblem{"params.fill", "must be an integer from -128 to 127"};
  return std::nullopt;
}

}  // namespace

std::vector<OpSpec> activation_ops() {
  std::vector<OpSpec> ops;
  for (const char* name : {"sigmoid", "hardsigmoid", "hardswish", "silu", "tanh"})
    ops.push_back({name, "vector", {{"source", {kNram}}}, {{"result", {kNram}}}, {"frac_bits"}, activation});
  ops.push_back({"mul", "vector", {{"lhs", {kNram}}, {"rhs", {kNram}}}, {{"result", {kNram}}}, {"shift"}, mul});
  // y = keep != 0 ? source : fill (a causal mask: the scores a token may not see).
  ops.push_back({"mask", "vector", {{"source", {kNram}}, {"keep", {kNram}}}, {{"result", {kNram}}}, {"fill"}, mask});
  return ops;
}

}  // namespace npusim
