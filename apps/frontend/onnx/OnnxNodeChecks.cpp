#include "apps/frontend/onnx/OnnxNodeChecks.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "apps/frontend/onnx/OnnxImporter.h"

namespace npusim {
namespace {

using Ranks = std::map<std::string, std::optional<int>>;

std::optional<int> rank_of(const Ranks& ranks, const onnx::NodeProto& n, int input) {
  if (input >= n.input_size()) return std::nullopt;
  const auto it = ranks.find(n.input(input));
  return it == ranks.end() ? std::nullopt : it->second;
}

// The rank of a node's first output, where the op makes it plain; unknown otherwise.
std::optional<int> output_rank(const OnnxModel& m, const Ranks& ranks, const onnx::NodeProto& n) {
  static const std::set<std::string> same = {"Conv", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
                                             "Relu", "Clip", "BatchNormalization", "Identity", "Dropout", "Transpose",
                                             "Concat"};
  const std::string& op = n.op_type();
  if (same.count(op)) return rank_of(ranks, n, 0);
  if (op == "Flatten" || op == "Gemm") return 2;
  if (op == "Add" || op == "MatMul") {
    const auto a = rank_of(ranks, n, 0), b = rank_of(ranks, n, 1);
    return a && b ? std::optional<int>(std::max(*a, *b)) : std::nullopt;
  }
  if (op == "Reshape" && n.input_size() > 1)
    if (const onnx::TensorProto* shape = m.constant(n.input(1)); shape && shape->dims_size() == 1)
      return int(shape->dims(0));
  return std::nullopt;
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

}  // namespace

void require_supported_op(const OnnxModel& m, const onnx::NodeProto& n) {
  const auto& ops = supported_onnx_ops();
  if (std::find(ops.begin(), ops.end(), n.op_type()) == ops.end() || !(n.domain().empty() || n.domain() == "ai.onnx"))
    m.fail(n, fmt::format("op type '{}{}' is not supported; supported ops: {}", n.domain().empty() ? "" : n.domain() + ".",
                          n.op_type(), fmt::join(ops, ", ")));
}

void check_nodes_before_inference(const OnnxModel& m) {
  Ranks ranks;
  for (const auto& v : m.graph().input())
    if (v.type().tensor_type().has_shape()) ranks[v.name()] = v.type().tensor_type().shape().dim_size();
  for (const auto& [name, t] : m.constants) ranks[name] = t->dims_size();
  for (const auto& n : m.graph().node()) {
    if (n.output_size() == 1 && m.constant(n.output(0))) continue;  // constants, already ranked
    require_supported_op(m, n);
    check_window_node(m, ranks, n);
    for (int i = 0; i < n.output_size(); ++i) ranks[n.output(i)] = i == 0 ? output_rank(m, ranks, n) : std::nullopt;
  }
}

}  // namespace npusim
