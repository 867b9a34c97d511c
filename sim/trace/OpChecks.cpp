#include "sim/trace/OpChecks.h"

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

std::optional<OpProblem> requant_params(const Instruction& ins) {
  const auto& p = ins.params;
  if (p.contains("shift") && !json_integer(p["shift"], 0, 31))
    return OpProblem{"params.shift", "must be an integer from 0 to 31"};
  if (p.contains("relu") && !p["relu"].is_boolean()) return OpProblem{"params.relu", "must be true or false"};
  return std::nullopt;
}

std::optional<OpProblem> read_window(const Instruction& ins, WindowParams& window) {
  if (auto p = read_int_list(ins.params, "stride", 2, 1, window.stride)) return p;
  return read_int_list(ins.params, "padding", 4, 0, window.pad);
}

}  // namespace npusim
