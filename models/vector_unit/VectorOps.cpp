// The ops the vector unit runs and the shape/dtype/param rules of each.
#include "models/vector_unit/VectorOps.h"

#include <fmt/format.h>

#include "sim/common/JsonInteger.h"
#include "sim/trace/OpChecks.h"

namespace npusim {

namespace {


std::optional<OpProblem> requant(const Instruction& ins) {
  if (auto p = needs_dtype(ins.inputs[0], "inputs[0]", DType::Int32)) return p;
  if (auto p = needs_dtype(ins.outputs[0], "outputs[0]", DType::Int8)) return p;
  if (ins.outputs[0].shape != ins.inputs[0].shape)
    return OpProblem{"outputs[0].shape", "must equal inputs[0].shape"};
  return requant_params(ins);
}

// Shared by pool and dwconv: an int8 NHWC window with one output channel per input channel.
std::optional<OpProblem> channel_window(const Instruction& ins, std::uint64_t kh, std::uint64_t kw, DType out_dtype) {
  if (auto p = rank4(ins.inputs[0], "inputs[0]", ins.op.c_str(), "[n, hi, wi, c]")) return p;
  if (auto p = rank4(ins.outputs[0], "outputs[0]", ins.op.c_str(), "[n, ho, wo, c]")) return p;
  if (auto p = needs_dtype(ins.inputs[0], "inputs[0]", DType::Int8)) return p;
  if (auto p = needs_dtype(ins.outputs[0], "outputs[0]", out_dtype)) return p;
  WindowParams window;
  if (auto p = read_window(ins, window)) return p;
  const Shape& x = ins.inputs[0].shape;
  const std::uint64_t ho = window.ho(x[1], kh), wo = window.wo(x[2], kw);
  if (ho == 0 || wo == 0) return OpProblem{"params", "window does not fit the padded input"};
  Shape expected = {x[0], ho, wo, x[3]};
  if (ins.outputs[0].shape != expected)
    return OpProblem{"outputs[0].shape", fmt::format("must be [n, ho, wo, c] = {}, got {}", shape_text(expected),
                                                     shape_text(ins.outputs[0].shape))};
  return std::nullopt;
}

std::optional<OpProblem> pool(const Instruction& ins) {
  std::vector<std::uint64_t> kernel = {1, 1};
  if (auto p = read_int_list(ins.params, "kernel", 2, 1, kernel)) return p;
  const auto& mode = ins.params.value("mode", nlohmann::json("max"));
  if (mode != "max" && mode != "avg") return OpProblem{"params.mode", "must be \"max\" or \"avg\""};
  return channel_window(ins, kernel[0], kernel[1], DType::Int8);
}

std::optional<OpProblem> dwconv(const Instruction& ins) {
  const TensorOperand& w = ins.inputs[1];
  if (w.shape.size() != 3 || w.shape[2] != ins.inputs[0].shape.back())
    return OpProblem{"inputs[1].shape", "depthwise weights must be [kh, kw, c] with the ifmap's c"};
  if (auto p = needs_dtype(w, "inputs[1]", DType::Int8)) return p;
  return channel_window(ins, w.shape[0], w.shape[1], DType::Int32);
}

// softmax, layernorm, gelu: int8 in and out, same shape; a position is the last axis.
std::optional<OpProblem> row_op(const Instruction& ins) {
  if (auto p = elementwise(ins)) return p;
  if (auto p = needs_dtype(ins.inputs[0], "inputs[0]", DType::Int8)) return p;
  if (ins.inputs[0].shape.empty()) return OpProblem{"inputs[0].shape", "must have at least one axis"};
  if (ins.params.contains("frac_bits") && !json_integer_as<std::uint32_t>(ins.params["frac_bits"], 0, 7))
    return OpProblem{"params.frac_bits", "must be an integer from 0 to 7"};
  if (!ins.params.contains("segment")) return std::nullopt;
  const auto segment = json_integer_as<std::uint64_t>(ins.params["segment"], 1, ins.inputs[0].shape.back());
  if (!segment || ins.inputs[0].shape.back() % *segment != 0)
    return OpProblem{"params.segment", fmt::format("must divide the last axis ({}) into equal runs",
                                                   ins.inputs[0].shape.back())};
  return std::nullopt;
}

}  // namespace

std::vector<OpSpec> vector_ops() {
  std::vector<OpSpec> ops = {
      {"relu", "vector", {{"source", {kNram}}}, {{"result", {kNram}}}, {}, elementwise},
      {"add", "vector", {{"lhs", {kNram}}, {"rhs", {kNram}}}, {{"result", {kNram}}}, {}, elementwise},
      // int32 accumulators back to int8 activations (optionally with a fused ReLU).
      {"requant", "vector", {{"source", {kNram}}}, {{"result", {kNram}}}, {"shift", "relu", "bias"}, requant},
      {"pool", "vector", {{"source", {kNram}}}, {{"result", {kNram}}}, {"kernel", "stride", "padding", "mode"}, pool},
      // Depthwise conv runs here: one channel per group leaves Wfold's Pci lanes empty.
      {"dwconv", "vector", {{"ifmap", {kNram}}, {"weights", {kNram}}}, {{"ofmap", {kNram}}}, {"stride", "padding"},
       dwconv},
      // Transformer ops (RowKernels.h): softmax over runs of `segment` channels (default: the last axis).
      {"softmax", "vector", {{"source", {kNram}}}, {{"result", {kNram}}}, {"segment", "frac_bits"}, row_op},
      {"layernorm", "vector", {{"source", {kNram}}}, {{"result", {kNram}}}, {}, row_op},
      {"gelu", "vector", {{"source", {kNram}}}, {{"result", {kNram}}}, {"frac_bits"}, row_op},
  };
  for (OpSpec& op : activation_ops()) ops.push_back(std::move(op));
  for (OpSpec& op : upsample_ops()) ops.push_back(std::move(op));
  return ops;
}

}  // namespace npusim
