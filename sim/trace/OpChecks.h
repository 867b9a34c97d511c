#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/tensor/WindowGeometry.h"
#include "sim/trace/OpCatalog.h"
#include "sim/trace/TraceFields.h"

namespace npusim {

// Building blocks for ops' checks, shared by the engines that register ops
// (each engine's ops live in its own folder, e.g. models/vector_unit/VectorOps.cpp).

using Shape = std::vector<std::uint64_t>;

std::optional<OpProblem> same_shape_and_dtype(const TensorOperand& t, const std::string& field,
                                              const TensorOperand& ref, const std::string& ref_field);
// Every input and the output share inputs[0]'s shape and dtype.
std::optional<OpProblem> elementwise(const Instruction& ins);
std::optional<OpProblem> needs_dtype(const TensorOperand& t, const std::string& field, DType want);
// A 4-D shape; `dims` names the axes for the message ("[n, hi, wi, ci]"), `what` the op.
std::optional<OpProblem> rank4(const TensorOperand& t, const std::string& field, const char* what, const char* dims);

// params[key] as a list of `count` integers, each from `minimum` to kMaxWindowParam; absent keeps `out`.
std::optional<OpProblem> read_int_list(const nlohmann::json& params, const char* key, std::size_t count,
                                       std::uint64_t minimum, std::vector<std::uint64_t>& out);
// The "stride" and "padding" params of a windowed op, checked; output sizes come
// from window_outputs (64-bit: trace shapes are not yet bounded to 32 bits here).
struct WindowParams {
  std::vector<std::uint64_t> stride = {1, 1};
  std::vector<std::uint64_t> pad = {0, 0, 0, 0};  // top, bottom, left, right
  std::uint64_t ho(std::uint64_t hi, std::uint64_t kh) const { return window_outputs(hi, pad[0], pad[1], kh, stride[0]); }
  std::uint64_t wo(std::uint64_t wi, std::uint64_t kw) const { return window_outputs(wi, pad[2], pad[3], kw, stride[1]); }
};
std::optional<OpProblem> read_window(const Instruction& ins, WindowParams& window);
// The int32 -> int8 requantization params: "shift" 0..31 and "relu" true/false, both optional,
// and "bias": one int32 per output channel (the result's innermost dimension), added to
// each accumulator before the shift; it needs a shift.
std::optional<OpProblem> requant_params(const Instruction& ins);
// The instruction's "bias" (checked by requant_params), empty when it has none.
std::vector<std::int32_t> requant_bias(const Instruction& ins);

}  // namespace npusim
