#include "sim/trace/OpChecks.h"

#include <cstdint>

#include <fmt/format.h>

#include "sim/common/JsonInteger.h"

namespace npusim {

std::optional<OpProblem> same_shape_and_dtype(const TensorOperand& t, const std::string& field,
                                              const TensorOperand& ref, const std::string& ref_field) {
  if (t.shape != ref.shape)
    return OpProblem{field + ".shape", fmt::format("shape {} differs from {}.shape {}", shape_text(t.shape),
                                                   ref_field, shape_text(ref.shape))};
  if (t.dtype != ref.dtype)
    return OpProblem{field + ".dtype", fmt::format("dtype {} differs from {}.dtype {}", dtype_name(t.dtype),
                                                   ref_field, dtype_name(ref.dtype))};
  return std::nullopt;
}

std::optional<OpProblem> elementwise(const Instruction& ins) {
  for (std::size_t i = 1; i < ins.inputs.size(); ++i)
    if (auto p = same_shape_and_dtype(ins.inputs[i], fmt::format("inputs[{}]", i), ins.inputs[0], "inputs[0]"))
      return p;
  return same_shape_and_dtype(ins.outputs[0], "outputs[0]", ins.inputs[0], "inputs[0]");
}

std::optional<OpProblem> needs_dtype(const TensorOperand& t, const std::string& field, DType want) {
  if (t.dtype == want) return std::nullopt;
  return OpProblem{field + ".dtype", fmt::format("must be {}, got {}", dtype_name(want), dtype_name(t.dtype))};
}

std::optional<OpProblem> rank4(const TensorOperand& t, const std::string& field, const char* what, const char* dims) {
  if (t.shape.size() == 4) return std::nullopt;
  return OpProblem{field + ".shape", fmt::format("{} needs a 4-D shape {}, got {}", what, dims, shape_text(t.shape))};
}

std::optional<OpProblem> read_int_list(const nlohmann::json& params, const char* key, std::size_t count,
                                       std::uint64_t minimum, std::vector<std::uint64_t>& out) {
  if (!params.contains(key)) return std::nullopt;
  const auto& v = params.at(key);
  std::vector<std::uint64_t> values;
  for (std::size_t i = 0; v.is_array() && v.size() == count && i < count; ++i)
    if (auto n = json_integer(v[i], minimum, kMaxWindowParam)) values.push_back(*n);
  if (values.size() == count) {
    out = values;
    return std::nullopt;
  }
  return OpProblem{fmt::format("params.{}", key),
                   fmt::format("must be a list of {} integers, each at least {} and at most {}", count, minimum,
                               kMaxWindowParam)};
}

namespace {

bool is_int32(const nlohmann::json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= std::uint64_t(INT32_MAX);
  return v.is_number_integer() && v.get<std::int64_t>() >= INT32_MIN && v.get<std::int64_t>() <= INT32_MAX;
}

}  // namespace

std::optional<OpProblem> requant_params(const Instruction& ins) {
  const auto& p = ins.params;
  if (p.contains("shift") && !json_integer(p["shift"], 0, 31))
    return OpProblem{"params.shift", "must be an integer from 0 to 31"};
  if (p.contains("relu") && !p["relu"].is_boolean()) return OpProblem{"params.relu", "must be true or false"};
  if (!p.contains("bias")) return std::nullopt;
  const std::uint64_t channels = ins.outputs.empty() || ins.outputs[0].shape.empty() ? 0 : ins.outputs[0].shape.back();
  if (!p.contains("shift")) return OpProblem{"params.bias", "is added while requantizing: give a shift too"};
  const auto& bias = p["bias"];
  if (!bias.is_array() || bias.size() != channels)
    return OpProblem{"params.bias", fmt::format("must be a list of {} integers, one per output channel", channels)};
  for (const auto& b : bias)
    if (!is_int32(b)) return OpProblem{"params.bias", fmt::format("{} is not an int32", b.dump())};
  return std::nullopt;
}

std::vector<std::int32_t> requant_bias(const Instruction& ins) {
  std::vector<std::int32_t> bias;
  if (ins.params.contains("bias"))
    for (const auto& b : ins.params["bias"]) bias.push_back(std::int32_t(b.get<std::int64_t>()));
  return bias;
}

std::optional<OpProblem> read_window(const Instruction& ins, WindowParams& window) {
  if (auto p = read_int_list(ins.params, "stride", 2, 1, window.stride)) return p;
  return read_int_list(ins.params, "padding", 4, 0, window.pad);
}

}  // namespace npusim
