// Evaluating the selection and broadcasting ops of shape arithmetic at import
// (OnnxShapeFolding.h); OnnxConstantFolding calls it for every foldable node.
#include "apps/frontend/onnx/OnnxShapeFolding.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxConstantFolding.h"
#include "apps/frontend/onnx/OnnxLayout.h"
#include "apps/frontend/onnx/OnnxTensor.h"

namespace npusim {

namespace {

using Node = onnx::NodeProto;
using Dims = std::vector<std::int64_t>;
constexpr std::int64_t kMaxElements = 1 << 16;  // as OnnxConstantFolding: shape arithmetic is small

// The broadcast of `a` and `b` (numpy rules), or empty when they do not broadcast.
std::optional<Dims> broadcast(const Dims& a, const Dims& b) {
  Dims out(std::max(a.size(), b.size()), 1);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t x = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
    const std::int64_t y = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = std::max(x, y);
  }
  return out;
}

// Element `flat` of the broadcast shape `to`, read from `t` (its dims aligned to the right).
double element(const Folded& t, const Dims& to, std::int64_t flat) {
  const std::size_t lead = to.size() - t.dims.size();
  std::int64_t at = 0, step = 1;
  for (std::size_t i = to.size(); i-- > lead;) {
    const std::int64_t index = flat % to[i], extent = t.dims[i - lead];
    flat /= to[i];
    if (extent != 1) at += index * step;
    step *= extent;
  }
  return t.values[std::size_t(at)];
}

// Whether every extent is positive and the values are as many as the extents say: what
// broadcast() and element() index by (a shape constant of [0, -1, -1] made them read past
// the values).
bool well_formed(const Folded& t) {
  return std::all_of(t.dims.begin(), t.dims.end(), [](std::int64_t d) { return d >= 1 && d <= kMaxElements; }) &&
         saturating_product(t.dims) == std::int64_t(t.values.size());
}

// `op` of the inputs, broadcast; empty when they do not broadcast, are too large, or one
// of them has an extent below 1 (no tensor npusim runs is empty).
std::optional<Folded> elementwise(const std::vector<Folded>& in, int type,
                                  const std::function<double(const std::vector<double>&)>& op) {
  if (!std::all_of(in.begin(), in.end(), well_formed)) return std::nullopt;
  Dims dims = in[0].dims;
  for (const auto& t : in) {
    const auto b = broadcast(dims, t.dims);
    if (!b) return std::nullopt;
    dims = *b;
  }
  const std::int64_t count = saturating_product(dims);
  if (count > kMaxElements) return std::nullopt;
  Folded f{type, dims, {}};
  for (std::int64_t i = 0; i < count; ++i) {
    std::vector<double> x;
    for (const auto& t : in) x.push_back(element(t, dims, i));
    f.values.push_back(op(x));
  }
  return f;
}

// Mod: the remainder with the divisor's sign (fmod 0, integers), or C's fmod (fmod 1).
std::optional<Folded> mod(const Node& n, const std::vector<Folded>& in, const OnnxModel& m) {
  const bool c_style = onnx_int(n, "fmod", 0) != 0;
  return elementwise(in, in[0].type, [&](const std::vector<double>& x) {
    if (x[1] == 0) m.fail(n, "takes a remainder by zero");
    const double r = std::fmod(x[0], x[1]);
    return c_style || r == 0 || (r < 0) == (x[1] < 0) ? r : r + x[1];
  });
}

std::optional<Folded> constant_of_shape(const Node& n, const std::vector<Folded>& in, const OnnxModel& m) {
  Folded value{onnx::TensorProto::FLOAT, {}, {0.0}};
  if (const auto* a = onnx_attribute(n, "value")) {
    value.type = a->t().data_type();
    value.values = tensor_values(a->t(), m.file);
    if (value.values.size() != 1) m.fail(n, "the value attribute must hold one element");
  }
  Dims dims;
  for (double d : in[0].values) {
    if (!(d >= 0 && d <= kMaxElements)) return std::nullopt;
    dims.push_back(std::int64_t(d));
  }
  if (saturating_product(dims) > kMaxElements) return std::nullopt;
  return Folded{value.type, dims, std::vector<double>(std::size_t(saturating_product(dims)), value.values[0])};
}

// Expand(x, shape): x broadcast to the shape, whose extents must be positive.
std::optional<Folded> expand(const Node& n, const std::vector<Folded>& in, const OnnxModel& m) {
  Folded shape{in[1].type, {}, {}};
  for (double d : in[1].values) {
    if (!(d >= 1 && d <= kMaxElements)) m.fail(n, fmt::format("expands to an extent of {}; extents must be from 1 to {}", d, kMaxElements));
    shape.dims.push_back(std::int64_t(d));
  }
  shape.values.assign(std::size_t(std::max<std::int64_t>(saturating_product(shape.dims), 0)), 0.0);
  if (shape.values.size() > std::size_t(kMaxElements)) return std::nullopt;
  return elementwise({in[0], shape}, in[0].type, [](const std::vector<double>& x) { return x[0]; });
}

std::optional<Folded> range(const Node& n, const std::vector<Folded>& in, const OnnxModel& m) {
  const double start = in[0].values.at(0), limit = in[1].values.at(0), delta = in[2].values.at(0);
  if (delta == 0) m.fail(n, "a Range with delta 0");
  const double steps = std::max(std::ceil((limit - start) / delta), 0.0);
  if (steps > kMaxElements) return std::nullopt;
  Folded f{in[0].type, {std::int64_t(steps)}, {}};
  for (std::int64_t i = 0; i < std::int64_t(steps); ++i) f.values.push_back(start + double(i) * delta);
  return f;
}

// ScatterND(data, indices [..., k], updates): each index tuple's slice of data replaced
// (Swin's window mask, written region by region into zeros).
std::optional<Folded> scatter_nd(const Node& n, const std::vector<Folded>& in, const OnnxModel& m) {
  Folded out = in[0];
  const Folded &index = in[1], &updates = in[2];
  const std::size_t k = index.dims.empty() ? 0 : std::size_t(index.dims.back());
  if (k == 0 || k > out.dims.size() || onnx_attribute(n, "reduction")) return std::nullopt;
  const std::int64_t slice = saturating_product(Dims(out.dims.begin() + std::ptrdiff_t(k), out.dims.end()));
  const std::size_t tuples = index.values.size() / k;
  if (updates.values.size() != tuples * std::size_t(slice)) m.fail(n, "the updates do not match the indices");
  for (std::size_t t = 0; t < tuples; ++t) {
    std::int64_t at = 0;
    for (std::size_t j = 0; j < k; ++j) {
      auto i = std::int64_t(index.values[t * k + j]);
      if (i < 0) i += out.dims[j];
      if (i < 0 || i >= out.dims[j]) m.fail(n, fmt::format("index {} is outside 0 to {}", i, out.dims[j] - 1));
      at = at * out.dims[j] + i;
    }
    std::copy_n(updates.values.begin() + std::ptrdiff_t(t * std::size_t(slice)), slice,
                out.values.begin() + std::ptrdiff_t(at * slice));
  }
  return out;
}

// One axis of a Slice: first index, step and count, clamped as the operator defines.
struct SliceAxis {
  std::int64_t first = 0, step = 1, count = 0;
};

SliceAxis slice_axis(std::int64_t extent, double start, double end, std::int64_t step) {
  auto bound = [&](double v, std::int64_t lo, std::int64_t hi) {  // ±2^63 - 1: to the end
    if (v > 1e18 || v < -1e18) return v > 0 ? hi : lo;
    const auto b = std::int64_t(v);
    return std::clamp(b < 0 ? b + extent : b, lo, hi);
  };
  const std::int64_t first = step > 0 ? bound(start, 0, extent) : bound(start, -1, extent - 1);
  const std::int64_t last = step > 0 ? bound(end, 0, extent) : bound(end, -1, extent - 1);
  const std::int64_t span = step > 0 ? last - first : first - last, stride = step > 0 ? step : -step;
  return {first, step, std::max<std::int64_t>(0, (span + stride - 1) / stride)};
}

// A Slice of a constant of rank 2 or more (Swin's relative position tables); rank 1 is
// OnnxConstantFolding's.
std::optional<Folded> slice_nd(const Node& n, const std::vector<Folded>& in, const OnnxModel& m) {
  const Folded& data = in[0];
  const auto rank = std::int64_t(data.dims.size());
  if (rank < 2 || in.size() < 3) return std::nullopt;
  std::vector<SliceAxis> axes(static_cast<std::size_t>(rank));
  for (std::int64_t a = 0; a < rank; ++a) axes[std::size_t(a)] = {0, 1, data.dims[std::size_t(a)]};
  for (std::size_t i = 0; i < in[1].values.size(); ++i) {
    auto a = in.size() > 3 && !in[3].values.empty() ? std::int64_t(in[3].values.at(i)) : std::int64_t(i);
    if (a < 0) a += rank;
    const std::int64_t step = in.size() > 4 && !in[4].values.empty() ? std::int64_t(in[4].values.at(i)) : 1;
    if (a < 0 || a >= rank || step == 0) m.fail(n, "a Slice axis outside the rank, or a step of 0");
    axes[std::size_t(a)] = slice_axis(data.dims[std::size_t(a)], in[1].values.at(i), in[2].values.at(i), step);
  }
  Folded out{data.type, {}, {}};
  for (const auto& a : axes) out.dims.push_back(a.count);
  const std::int64_t count = saturating_product(out.dims);
  for (std::int64_t flat = 0; flat < count; ++flat) {
    std::int64_t rest = flat, at = 0, stride = 1;
    for (std::int64_t a = rank; a-- > 0;) {
      const SliceAxis& s = axes[std::size_t(a)];
      at += (s.first + rest % s.count * s.step) * stride;
      rest /= s.count;
      stride *= data.dims[std::size_t(a)];
    }
    out.values.push_back(data.values[std::size_t(at)]);
  }
  return out;
}

// Transpose of a constant (default perm: the axes reversed).
std::optional<Folded> transpose(const Node& n, const Folded& data) {
  const std::size_t rank = data.dims.size();
  Dims reverse;
  for (std::size_t i = rank; i-- > 0;) reverse.push_back(std::int64_t(i));
  const Dims perm = onnx_ints(n, "perm", reverse);
  if (!is_permutation_of_rank(perm, rank) || !well_formed(data)) return std::nullopt;
  Folded out{data.type, {}, {}};
  Dims strides(rank, 1);
  for (std::size_t a = rank; a-- > 1;) strides[a - 1] = strides[a] * data.dims[a];
  for (auto p : perm) out.dims.push_back(data.dims.at(std::size_t(p)));
  for (std::int64_t flat = 0; flat < std::int64_t(data.values.size()); ++flat) {
    std::int64_t rest = flat, at = 0;
    for (std::size_t a = rank; a-- > 0;) {
      at += rest % out.dims[a] * strides[std::size_t(perm[a])];
      rest /= out.dims[a];
    }
    out.values.push_back(data.values[std::size_t(at)]);
  }
  return out;
}

}  // namespace

const std::vector<std::string>& shape_folding_ops() {
  static const std::vector<std::string> ops = {"Mod",   "Equal",           "Less",   "Greater", "Not",
                                               "Where", "ConstantOfShape", "Expand", "Range",   "ScatterND", "Transpose"};
  return ops;
}

bool is_permutation_of_rank(const Dims& perm, std::size_t rank) {
  std::vector<bool> seen(rank, false);
  for (const std::int64_t p : perm) {
    if (p < 0 || p >= std::int64_t(rank) || seen[std::size_t(p)]) return false;
    seen[std::size_t(p)] = true;
  }
  return perm.size() == rank;
}

std::optional<Dims> reshape_target(const Dims& from, const std::vector<double>& target) {
  Dims dims;
  std::int64_t known = 1, rest = -1;
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (!(target[i] >= -1 && target[i] <= kMaxElements)) return std::nullopt;
    auto d = std::int64_t(target[i]);
    if (d == 0 && i < from.size()) d = from[i];
    if (d == -1 && rest < 0) rest = std::int64_t(i);
    else if (d <= 0) return std::nullopt;
    else known *= d;
    dims.push_back(d);
  }
  const std::int64_t total = saturating_product(from);
  if (rest >= 0 && known > 0 && total % known == 0) dims[std::size_t(rest)] = total / known;
  if (saturating_product(dims) != total) return std::nullopt;
  return dims;
}

namespace {

bool shapes_unknown(const OnnxModel& m) {
  for (const auto& n : m.graph().node())
    for (const auto& out : n.output())
      if (!out.empty() && !m.shapes.count(out)) return true;
  return false;
}

// The folded integer nodes as Constant nodes, which shape inference reads.
void freeze_folded(OnnxModel& m) {
  for (auto& n : *m.proto.mutable_graph()->mutable_node()) {
    if (n.output_size() != 1 || n.op_type() == "Constant" || n.op_type() == "Identity") continue;
    const onnx::TensorProto* t = m.constant(n.output(0));
    if (!t || t->data_type() != onnx::TensorProto::INT64) continue;  // floats keep their node (and type)
    const onnx::TensorProto value = *t;
    const std::string output = n.output(0), name = n.name();
    n.Clear();
    n.set_op_type("Constant"), n.set_name(name), n.add_output(output);
    auto* a = n.add_attribute();
    a->set_name("value"), a->set_type(onnx::AttributeProto::TENSOR), *a->mutable_t() = value;
  }
}

}  // namespace

// Each round's new shapes may let more Shape nodes fold (Swin: a Pad by folded amounts,
// then the Shape of its output), so folding and inference alternate while that helps.
void infer_folded_shapes(OnnxModel& m) {
  for (int round = 0; round < 4 && shapes_unknown(m); ++round) {
    const std::size_t constants = m.constants.size();
    freeze_folded(m);
    m.proto.mutable_graph()->clear_value_info();
    infer_shapes(m);
    fold_constants(m);
    if (m.constants.size() == constants) return;
  }
}

std::optional<Folded> fold_shape_op(const Node& n, const std::vector<Folded>& in, const OnnxModel& m) {
  static const std::map<std::string, std::function<double(double, double)>> comparisons = {
      {"Equal", [](double a, double b) { return double(a == b); }},
      {"Less", [](double a, double b) { return double(a < b); }},
      {"Greater", [](double a, double b) { return double(a > b); }}};
  const std::string& op = n.op_type();
  if (const auto c = comparisons.find(op); c != comparisons.end() && in.size() == 2)
    return elementwise(in, onnx::TensorProto::BOOL, [&](const std::vector<double>& x) { return c->second(x[0], x[1]); });
  if (op == "Mod" && in.size() == 2) return mod(n, in, m);
  if (op == "Not" && in.size() == 1)
    return elementwise(in, onnx::TensorProto::BOOL, [](const std::vector<double>& x) { return double(x[0] == 0); });
  if (op == "ScatterND" && in.size() == 3) return scatter_nd(n, in, m);
  if (op == "Slice") return slice_nd(n, in, m);
  if (op == "Transpose" && in.size() == 1) return transpose(n, in[0]);
  if (op == "Where" && in.size() == 3)
    return elementwise(in, in[1].type, [](const std::vector<double>& x) { return x[0] != 0 ? x[1] : x[2]; });
  if (op == "ConstantOfShape" && in.size() == 1) return constant_of_shape(n, in, m);
  if (op == "Expand" && in.size() == 2) return expand(n, in, m);
  if (op == "Range" && in.size() == 3) return range(n, in, m);
  return std::nullopt;
}

}  // namespace npusim
