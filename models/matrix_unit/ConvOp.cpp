// The conv op the matrix unit runs, and its shape/dtype/param rules.
#include "models/matrix_unit/ConvOp.h"

#include <fmt/format.h>

#include "models/matrix_unit/MatrixUnitConfig.h"
#include "sim/trace/OpChecks.h"

namespace npusim {

namespace {

std::optional<OpProblem> conv_dtypes(const Instruction& ins) {
  DType in = ins.inputs[0].dtype;
  if (in != DType::Int8 && in != DType::Float32)
    return OpProblem{"inputs[0].dtype", fmt::format("conv takes int8 or float32 ifmaps, got {}", dtype_name(in))};
  if (ins.inputs[1].dtype != in)
    return OpProblem{"inputs[1].dtype", fmt::format("weights dtype {} differs from ifmap dtype {}",
                                                    dtype_name(ins.inputs[1].dtype), dtype_name(in))};
  // With a "shift" the result path requantizes: int8 out (models/matrix_unit/README.md).
  const bool requantized = ins.params.contains("shift");
  if (!requantized && ins.params.contains("relu"))
    return OpProblem{"params.relu", "conv applies relu only while requantizing: give a shift too"};
  if (requantized && in != DType::Int8)
    return OpProblem{"params.shift", fmt::format("only int8 convs requantize on the result path, not {}", dtype_name(in))};
  DType acc = requantized ? DType::Int8 : in == DType::Int8 ? DType::Int32 : DType::Float32;
  if (ins.outputs[0].dtype != acc)
    return OpProblem{"outputs[0].dtype", fmt::format("conv of {}{} produces {}, got {}", dtype_name(in),
                                                     requantized ? " with a shift" : "", dtype_name(acc),
                                                     dtype_name(ins.outputs[0].dtype))};
  return requant_params(ins);
}

std::optional<OpProblem> conv(const Instruction& ins) {
  if (auto p = rank4(ins.inputs[0], "inputs[0]", "conv", "[n, hi, wi, ci]")) return p;
  if (auto p = rank4(ins.inputs[1], "inputs[1]", "conv", "[co, kh, kw, ci]")) return p;
  if (auto p = rank4(ins.outputs[0], "outputs[0]", "conv", "[n, ho, wo, co]")) return p;
  if (auto p = conv_dtypes(ins)) return p;
  WindowParams window;
  if (auto p = read_window(ins, window)) return p;

  const Shape& x = ins.inputs[0].shape;  // n, hi, wi, ci
  Shape w = ins.inputs[1].shape;         // co, kh, kw, ci
  if (ins.params.contains("transposed_weights")) {
    if (!ins.params["transposed_weights"].is_boolean())
      return OpProblem{"params.transposed_weights", "must be true or false"};
    // A 1x1 kernel stored [ci, 1, 1, co]: a matmul's second operand as its producer wrote it.
    if (ins.params["transposed_weights"].get<bool>()) {
      if (w[1] != 1 || w[2] != 1)
        return OpProblem{"inputs[1].shape", "transposed weights must be a 1x1 kernel [ci, 1, 1, co]"};
      std::swap(w[0], w[3]);
    }
  }
  if (w[3] != x[3])
    return OpProblem{"inputs[1].shape", fmt::format("weights have ci={} but the ifmap has ci={}", w[3], x[3])};
  const std::uint64_t ho = window.ho(x[1], w[1]), wo = window.wo(x[2], w[2]);
  const auto& pad = window.pad;
  if (ho == 0 || wo == 0)
    return OpProblem{"inputs[1].shape", fmt::format("kernel {}x{} does not fit the padded ifmap {}x{}", w[1], w[2],
                                                    x[1] + pad[0] + pad[1], x[2] + pad[2] + pad[3])};
  Shape expected = {x[0], ho, wo, w[0]};
  if (ins.outputs[0].shape != expected)
    return OpProblem{"outputs[0].shape", fmt::format("conv output must be [n, ho, wo, co] = {}, got {}",
                                                     shape_text(expected), shape_text(ins.outputs[0].shape))};
  return std::nullopt;
}

// A conv that requantizes needs a core whose matrix unit can do it on its result path.
std::optional<OpProblem> conv_on_core(const Instruction& ins, const CoreConfig& core) {
  if (!ins.params.contains("shift") || !core.blocks.has(MatrixUnitConfig::kSection)) return std::nullopt;
  if (core.block<MatrixUnitConfig>(MatrixUnitConfig::kSection).result_requantize) return std::nullopt;
  return OpProblem{"params.shift", "this core's matrix unit cannot requantize on its result path "
                                   "(/core/matrix/result_requantize is false): write int32 and follow with a requant"};
}

}  // namespace

std::vector<OpSpec> matrix_unit_ops() {
  return {{"conv", "matrix", {{"ifmap", {AddressSpace::Nram}}, {"weights", {AddressSpace::Wram}}},
           {{"ofmap", {AddressSpace::Nram}}}, {"stride", "padding", "shift", "relu", "bias", "transposed_weights"}, conv, conv_on_core}};
}

}  // namespace npusim
