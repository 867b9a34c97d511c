// The ops npusim ships with, and the shape/dtype/param rules of each.
#include <fmt/format.h>

#include "sim/common/JsonInteger.h"
#include "sim/trace/OpCatalog.h"
#include "sim/trace/TraceFields.h"

namespace npusim {

namespace {

using Shape = std::vector<std::uint64_t>;
constexpr auto kDram = AddressSpace::Dram;
constexpr auto kNram = AddressSpace::Nram;
constexpr auto kWram = AddressSpace::Wram;
constexpr auto kCluster = AddressSpace::Cluster;

std::optional<OpProblem> same_bytes(const Instruction& ins) {
  const auto& from = ins.inputs[0];
  const auto& to = ins.outputs[0];
  if (from.bytes() == to.bytes()) return std::nullopt;
  return OpProblem{"outputs[0]", fmt::format("{} moves {} bytes from inputs[0] but outputs[0] holds {} bytes; "
                                             "they must be the same size",
                                             ins.op, from.bytes(), to.bytes())};
}

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

// Reads params[key] as a list of `count` integers, each from `minimum` to kMaxWindowParam.
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

std::optional<OpProblem> rank4(const TensorOperand& t, const std::string& field, const char* dims) {
  if (t.shape.size() == 4) return std::nullopt;
  return OpProblem{field + ".shape", fmt::format("conv needs a 4-D shape {}, got {}", dims, shape_text(t.shape))};
}

// Output extent of a sliding window along one axis; 0 when the kernel does not fit.
std::uint64_t window_count(std::uint64_t in, std::uint64_t pad_low, std::uint64_t pad_high, std::uint64_t kernel,
                           std::uint64_t stride) {
  std::uint64_t padded = in + pad_low + pad_high;
  return padded < kernel ? 0 : (padded - kernel) / stride + 1;
}

std::optional<OpProblem> conv_dtypes(const Instruction& ins) {
  DType in = ins.inputs[0].dtype;
  if (in != DType::Int8 && in != DType::Float32)
    return OpProblem{"inputs[0].dtype", fmt::format("conv takes int8 or float32 ifmaps, got {}", dtype_name(in))};
  if (ins.inputs[1].dtype != in)
    return OpProblem{"inputs[1].dtype", fmt::format("weights dtype {} differs from ifmap dtype {}",
                                                    dtype_name(ins.inputs[1].dtype), dtype_name(in))};
  DType acc = in == DType::Int8 ? DType::Int32 : DType::Float32;
  if (ins.outputs[0].dtype != acc)
    return OpProblem{"outputs[0].dtype", fmt::format("conv of {} produces {}, got {}", dtype_name(in), dtype_name(acc),
                                                     dtype_name(ins.outputs[0].dtype))};
  return std::nullopt;
}

std::optional<OpProblem> conv(const Instruction& ins) {
  if (auto p = rank4(ins.inputs[0], "inputs[0]", "[n, hi, wi, ci]")) return p;
  if (auto p = rank4(ins.inputs[1], "inputs[1]", "[co, kh, kw, ci]")) return p;
  if (auto p = rank4(ins.outputs[0], "outputs[0]", "[n, ho, wo, co]")) return p;
  if (auto p = conv_dtypes(ins)) return p;
  std::vector<std::uint64_t> stride = {1, 1}, pad = {0, 0, 0, 0};
  if (auto p = read_int_list(ins.params, "stride", 2, 1, stride)) return p;
  if (auto p = read_int_list(ins.params, "padding", 4, 0, pad)) return p;

  const Shape& x = ins.inputs[0].shape;  // n, hi, wi, ci
  const Shape& w = ins.inputs[1].shape;  // co, kh, kw, ci
  if (w[3] != x[3])
    return OpProblem{"inputs[1].shape", fmt::format("weights have ci={} but the ifmap has ci={}", w[3], x[3])};
  std::uint64_t ho = window_count(x[1], pad[0], pad[1], w[1], stride[0]);
  std::uint64_t wo = window_count(x[2], pad[2], pad[3], w[2], stride[1]);
  if (ho == 0 || wo == 0)
    return OpProblem{"inputs[1].shape", fmt::format("kernel {}x{} does not fit the padded ifmap {}x{}", w[1], w[2],
                                                    x[1] + pad[0] + pad[1], x[2] + pad[2] + pad[3])};
  Shape expected = {x[0], ho, wo, w[0]};
  if (ins.outputs[0].shape != expected)
    return OpProblem{"outputs[0].shape", fmt::format("conv output must be [n, ho, wo, co] = {}, got {}",
                                                     shape_text(expected), shape_text(ins.outputs[0].shape))};
  return std::nullopt;
}

std::optional<OpProblem> needs_dtype(const TensorOperand& t, const std::string& field, DType want) {
  if (t.dtype == want) return std::nullopt;
  return OpProblem{field + ".dtype", fmt::format("must be {}, got {}", dtype_name(want), dtype_name(t.dtype))};
}

std::optional<OpProblem> requant(const Instruction& ins) {
  if (auto p = needs_dtype(ins.inputs[0], "inputs[0]", DType::Int32)) return p;
  if (auto p = needs_dtype(ins.outputs[0], "outputs[0]", DType::Int8)) return p;
  if (ins.outputs[0].shape != ins.inputs[0].shape)
    return OpProblem{"outputs[0].shape", "must equal inputs[0].shape"};
  const auto& p = ins.params;
  if (p.contains("shift") && !json_integer(p["shift"], 0, 31))
    return OpProblem{"params.shift", "must be an integer from 0 to 31"};
  if (p.contains("relu") && !p["relu"].is_boolean()) return OpProblem{"params.relu", "must be true or false"};
  return std::nullopt;
}

// Shared by pool and dwconv: an int8 NHWC window with one output channel per input channel.
std::optional<OpProblem> channel_window(const Instruction& ins, std::uint64_t kh, std::uint64_t kw, DType out_dtype) {
  if (auto p = rank4(ins.inputs[0], "inputs[0]", "[n, hi, wi, c]")) return p;
  if (auto p = rank4(ins.outputs[0], "outputs[0]", "[n, ho, wo, c]")) return p;
  if (auto p = needs_dtype(ins.inputs[0], "inputs[0]", DType::Int8)) return p;
  if (auto p = needs_dtype(ins.outputs[0], "outputs[0]", out_dtype)) return p;
  std::vector<std::uint64_t> stride = {1, 1}, pad = {0, 0, 0, 0};
  if (auto p = read_int_list(ins.params, "stride", 2, 1, stride)) return p;
  if (auto p = read_int_list(ins.params, "padding", 4, 0, pad)) return p;
  const Shape& x = ins.inputs[0].shape;
  std::uint64_t ho = window_count(x[1], pad[0], pad[1], kh, stride[0]);
  std::uint64_t wo = window_count(x[2], pad[2], pad[3], kw, stride[1]);
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

}  // namespace

std::vector<OpSpec> builtin_ops() {
  return {
      {"load", "load", {{"source", {kDram, kCluster}, true}}, {{"destination", {kNram, kWram}}}, {}, same_bytes},
      {"store", "store", {{"source", {kNram}}}, {{"destination", {kDram, kCluster}, true}}, {}, same_bytes},
      {"relu", "vector", {{"source", {kNram}}}, {{"result", {kNram}}}, {}, elementwise},
      {"add", "vector", {{"lhs", {kNram}}, {"rhs", {kNram}}}, {{"result", {kNram}}}, {}, elementwise},
      {"conv", "matrix", {{"ifmap", {kNram}}, {"weights", {kWram}}}, {{"ofmap", {kNram}}}, {"stride", "padding"}, conv},
      // int32 accumulators back to int8 activations (optionally with a fused ReLU).
      {"requant", "vector", {{"source", {kNram}}}, {{"result", {kNram}}}, {"shift", "relu"}, requant},
      {"pool", "vector", {{"source", {kNram}}}, {{"result", {kNram}}}, {"kernel", "stride", "padding", "mode"}, pool},
      // Depthwise conv runs on the vector unit: one channel per group leaves Wfold's Pci lanes empty.
      {"dwconv", "vector", {{"ifmap", {kNram}}, {"weights", {kNram}}}, {{"ofmap", {kNram}}}, {"stride", "padding"},
       dwconv},
  };
}

}  // namespace npusim
