#include "apps/frontend/onnx/OnnxNodeChecks.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxImporter.h"
#include "apps/frontend/onnx/OnnxTensor.h"

namespace npusim {
namespace {

using Ranks = std::map<std::string, std::optional<int>>;

std::optional<int> rank_of(const Ranks& ranks, const onnx::NodeProto& n, int input) {
  if (input >= n.input_size()) return std::nullopt;
  const auto it = ranks.find(n.input(input));
  return it == ranks.end() ? std::nullopt : it->second;
}

std::optional<int> broadcast_rank(const Ranks& ranks, const onnx::NodeProto& n) {
  std::optional<int> r = 0;
  for (int i = 0; i < n.input_size(); ++i) {
    const auto in = rank_of(ranks, n, i);
    r = r && in ? std::optional<int>(std::max(*r, *in)) : std::nullopt;
  }
  return r;
}

// MatMul: numpy's rules, a rank-1 operand losing its axis.
std::optional<int> matmul_rank(const Ranks& ranks, const onnx::NodeProto& n) {
  const auto a = rank_of(ranks, n, 0), b = rank_of(ranks, n, 1);
  if (!a || !b) return std::nullopt;
  if (*a == 1 && *b == 1) return 0;
  if (*a == 1 || *b == 1) return std::max(*a, *b) - 1;
  return std::max(*a, *b);
}

// The rank of a Reshape, Unsqueeze, Squeeze, Gather or ReduceMean output, from its constants.
std::optional<int> reshaping_rank(const OnnxModel& m, const Ranks& ranks, const onnx::NodeProto& n) {
  const std::string& op = n.op_type();
  const auto in = rank_of(ranks, n, 0);
  const onnx::TensorProto* second = n.input_size() > 1 ? m.constant(n.input(1)) : nullptr;
  if (op == "Reshape") return second && second->dims_size() == 1 ? std::optional<int>(int(second->dims(0))) : std::nullopt;
  if (op == "Gather") {
    const auto indices = rank_of(ranks, n, 1);
    return in && indices ? std::optional<int>(*in + *indices - 1) : std::nullopt;
  }
  std::optional<int> axes;
  if (const auto* a = onnx_attribute(n, "axes")) axes = a->ints_size();
  else if (second && second->dims_size() == 1) axes = int(second->dims(0));
  if (!in) return std::nullopt;
  if (op == "Unsqueeze" && axes) return *in + *axes;
  if (op == "Squeeze" && axes) return *in - *axes;
  if (op == "ReduceMean") return onnx_int(n, "keepdims", 1) ? in : axes ? std::optional<int>(*in - *axes) : 0;
  return std::nullopt;
}

// The rank of a node's first output, where the op makes it plain; unknown otherwise.
std::optional<int> output_rank(const OnnxModel& m, const Ranks& ranks, const onnx::NodeProto& n) {
  static const std::set<std::string> same = {
      "Conv", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "Relu", "Clip", "BatchNormalization",
      "Identity", "Dropout", "Transpose", "Softmax", "LayerNormalization", "Sigmoid", "HardSigmoid",
      "HardSwish", "Tanh", "Erf", "Pad", "Slice", "Cast", "Resize", "Split", "Sqrt", "Neg", "Not", "ScatterND"};
  static const std::set<std::string> broadcast = {"Add", "Sub", "Mul", "Div", "Pow", "Where", "Equal", "Less",
                                                  "Greater", "Mod"};
  const std::string& op = n.op_type();
  if (same.count(op)) return rank_of(ranks, n, 0);
  // Concat's inputs share one rank: any known one will do (a class token's Expand may be unknown).
  if (op == "Concat")
    for (int i = 0; i < n.input_size(); ++i)
      if (const auto r = rank_of(ranks, n, i)) return r;
  if (broadcast.count(op)) return broadcast_rank(ranks, n);
  if (op == "Flatten" || op == "Gemm") return 2;
  if (op == "Shape" || op == "Range") return 1;
  if (op == "MatMul") return matmul_rank(ranks, n);
  if (op == "ConstantOfShape" || op == "Expand") {
    const onnx::TensorProto* shape = m.constant(n.input(op == "Expand" ? 1 : 0));
    const auto in = op == "Expand" ? rank_of(ranks, n, 0) : std::optional<int>(0);
    if (!shape || shape->dims_size() != 1 || !in) return std::nullopt;
    return std::max(*in, int(shape->dims(0)));
  }
  return reshaping_rank(m, ranks, n);
}

void check_window_node(const OnnxModel& m, const Ranks& ranks, const onnx::NodeProto& n) {
  static const std::set<std::string> windows = {"Conv", "MaxPool", "AveragePool", "GlobalAveragePool",
                                                "GlobalMaxPool"};
  if (!windows.count(n.op_type())) return;
  if (const auto r = rank_of(ranks, n, 0); r && *r != 4)
    m.fail(n, fmt::format("its input has rank {}; windows run over [N, C, H, W] maps (rank 4)", *r));
  if (n.op_type() == "Conv")
    if (const auto r = rank_of(ranks, n, 1); r && *r != 4)
      m.fail(n, fmt::format("its weights have rank {}; a 2-D convolution's are [CO, CI/group, KH, KW] (rank 4)", *r));
  for (const auto& a : n.attribute()) {
    const bool pads = a.name() == "pads";
    if (!pads && a.name() != "kernel_shape" && a.name() != "strides" && a.name() != "dilations") continue;
    if (a.ints_size() != (pads ? 4 : 2))
      m.fail(n, fmt::format("attribute '{}' has {} values; a 2-D window takes {}", a.name(), a.ints_size(), pads ? 4 : 2));
    const std::int64_t least = pads ? 0 : 1;  // the library divides by strides and dilations
    for (std::int64_t v : a.ints())
      if (v < least || v > (1 << 20))
        m.fail(n, fmt::format("attribute '{}' holds {}; it must be from {} to {}", a.name(), v, least, 1 << 20));
  }
}

// Lengths of rank-1 values whose elements the library reads when it propagates shapes
// (a Shape's output: one element per axis of its input; rank-1 constants).
using Lengths = std::map<std::string, std::int64_t>;

std::optional<std::int64_t> length_of(const Lengths& lengths, const onnx::NodeProto& n, int input) {
  if (input >= n.input_size()) return std::nullopt;
  const auto it = lengths.find(n.input(input));
  return it == lengths.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
}

// A Slice of a rank-1 value of known length, with one constant start and end and no steps
// (a ViT's batch-and-channels prefix of a Shape): its length.
std::optional<std::int64_t> sliced_length(const OnnxModel& m, const Lengths& lengths, const onnx::NodeProto& n) {
  const auto length = length_of(lengths, n, 0);
  const onnx::TensorProto* starts = n.input_size() > 2 ? m.constant(n.input(1)) : nullptr;
  const onnx::TensorProto* ends = n.input_size() > 2 ? m.constant(n.input(2)) : nullptr;
  if (!length || !starts || !ends || n.input_size() > 4) return std::nullopt;
  const auto s = tensor_integers(*starts, m.file), e = tensor_integers(*ends, m.file);
  if (s.size() != 1 || e.size() != 1) return std::nullopt;
  const auto clamp = [&](std::int64_t v) { return std::clamp(v < 0 ? v + *length : v, std::int64_t(0), *length); };
  return std::max<std::int64_t>(0, clamp(e[0]) - clamp(s[0]));
}

// Lengths the library's data propagation follows: a Shape's output, Slices of it and Concats
// of such pieces (the target of a Reshape built from its input's shape).
void record_length(const OnnxModel& m, const Ranks& ranks, Lengths& lengths, const onnx::NodeProto& n) {
  if (n.output_size() != 1) return;
  const std::string& op = n.op_type();
  if (op == "Shape" && !onnx_attribute(n, "start") && !onnx_attribute(n, "end")) {
    if (const auto r = rank_of(ranks, n, 0)) lengths[n.output(0)] = *r;
  } else if (op == "Slice") {
    if (const auto l = sliced_length(m, lengths, n)) lengths[n.output(0)] = *l;
  } else if (op == "Concat") {
    std::int64_t sum = 0;
    for (int i = 0; i < n.input_size(); ++i) {
      const auto l = length_of(lengths, n, i);
      if (!l) return;
      sum += *l;
    }
    lengths[n.output(0)] = sum;
  }
}

// A Gather of a Shape's output: the library's data propagation reads the dims its constant
// indices name, unchecked (ViT's class-token arithmetic gathers the batch this way).
void check_shape_indices(const OnnxModel& m, const Ranks& ranks, const Lengths& lengths, const onnx::NodeProto& n) {
  (void)ranks;
  if (n.op_type() != "Gather" || n.input_size() < 2) return;
  const auto length = lengths.find(n.input(0));
  const onnx::TensorProto* indices = m.constant(n.input(1));
  if (length == lengths.end() || !indices) return;
  for (const std::int64_t i : tensor_integers(*indices, m.file))
    if (i < -length->second || i >= length->second)
      m.fail(n, fmt::format("index {} is outside the {} dimensions of the shape it gathers from", i, length->second));
}

}  // namespace

void require_supported_op(const OnnxModel& m, const onnx::NodeProto& n) {
  const auto& ops = supported_onnx_ops();
  if (std::find(ops.begin(), ops.end(), n.op_type()) == ops.end() || !(n.domain().empty() || n.domain() == "ai.onnx"))
    m.fail(n, fmt::format("op type '{}{}' is not supported; supported ops: {}", n.domain().empty() ? "" : n.domain() + ".",
                          n.op_type(), fmt::join(ops, ", ")));
}

void check_nodes_before_inference(const OnnxModel& m) {
  Ranks ranks;
  Lengths lengths;
  for (const auto& [name, t] : m.constants)
    if (t->dims_size() == 1) lengths[name] = t->dims(0);
  for (const auto& v : m.graph().input())
    if (v.type().tensor_type().has_shape()) ranks[v.name()] = v.type().tensor_type().shape().dim_size();
  for (const auto& [name, t] : m.constants) ranks[name] = t->dims_size();
  for (const auto& n : m.graph().node()) {
    if (n.output_size() == 1 && m.constant(n.output(0))) continue;  // constants, already ranked
    require_supported_op(m, n);
    check_window_node(m, ranks, n);
    check_node_arguments(m, n, rank_of(ranks, n, 0));
    check_shape_indices(m, ranks, lengths, n);
    for (int i = 0; i < n.output_size(); ++i)
      ranks[n.output(i)] = i == 0 || n.op_type() == "Split" ? output_rank(m, ranks, n) : std::nullopt;
    // A Reshape to a target computed from shapes: its rank is the target's length.
    if (n.op_type() == "Reshape" && !ranks[n.output(0)])
      if (const auto l = length_of(lengths, n, 1)) ranks[n.output(0)] = int(*l);
    record_length(m, ranks, lengths, n);
  }
}

}  // namespace npusim
