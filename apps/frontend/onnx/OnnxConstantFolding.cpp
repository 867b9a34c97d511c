#include "apps/frontend/onnx/OnnxConstantFolding.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxLayout.h"
#include "apps/frontend/onnx/OnnxShapeFolding.h"
#include "apps/frontend/onnx/OnnxTensor.h"

namespace npusim {

namespace {

using Node = onnx::NodeProto;
using Dims = std::vector<std::int64_t>;
constexpr std::int64_t kMaxFoldedElements = 1 << 16;  // shape arithmetic is small; larger is left alone

std::int64_t count(const Dims& d) { return saturating_product(d); }

class Folder {
 public:
  explicit Folder(OnnxModel& m) : m_(m) {}

  // The node's output, or empty when it cannot be evaluated here.
  std::optional<Folded> fold(const Node& n) {
    const std::string& op = n.op_type();
    if (op == "Shape") return shape(n);
    std::vector<Folded> in;
    for (const auto& name : n.input()) {
      if (name.empty()) {
        in.push_back({});
        continue;
      }
      const onnx::TensorProto* t = m_.constant(name);
      if (!t) return std::nullopt;
      Folded f{t->data_type(), {t->dims().begin(), t->dims().end()}, {}};
      if (count(f.dims) > kMaxFoldedElements || count(f.dims) < 0) return std::nullopt;
      f.values = tensor_values(*t, m_.file);
      in.push_back(std::move(f));
    }
    if (in.empty()) return std::nullopt;
    if (auto f = fold_shape_op(n, in, m_)) return f;
    if (op == "Gather") return gather(n, in);
    if (op == "Slice") return slice(n, in);
    if (op == "Concat") return concat(n, in);
    if (op == "Unsqueeze" || op == "Squeeze" || op == "Reshape" || op == "Flatten") return reshape(n, in);
    if (op == "Cast") return cast(n, in[0]);
    if (op == "Sqrt" || op == "Neg") return unary(n, in[0]);
    return binary(n, in);
  }

 private:
  [[noreturn]] void fail(const Node& n, const std::string& why) const { m_.fail(n, why); }

  std::optional<Folded> shape(const Node& n) {
    const auto it = m_.shapes.find(n.input(0));
    if (it == m_.shapes.end()) return std::nullopt;
    const auto rank = std::int64_t(it->second.size());
    std::int64_t start = 0, end = rank;
    if (const auto* a = onnx_attribute(n, "start")) start = a->i();
    if (const auto* a = onnx_attribute(n, "end")) end = a->i();
    start = std::clamp(start < 0 ? start + rank : start, std::int64_t(0), rank);
    end = std::clamp(end < 0 ? end + rank : end, std::int64_t(0), rank);
    Folded f{onnx::TensorProto::INT64, {std::max(end - start, std::int64_t(0))}, {}};
    for (std::int64_t i = start; i < end; ++i) f.values.push_back(double(it->second[std::size_t(i)]));
    return f;
  }

  std::int64_t axis(const Node& n, std::int64_t rank, std::int64_t fallback = 0) const {
    const auto* a = onnx_attribute(n, "axis");
    std::int64_t v = a ? a->i() : fallback;
    if (v < 0) v += rank;
    if (v < 0 || v >= std::max(rank, std::int64_t(1))) fail(n, fmt::format("axis {} is outside rank {}", v, rank));
    return v;
  }

  // Elements of `in` as [outer, extent, inner] around `axis`.
  static std::int64_t outer_of(const Dims& d, std::int64_t axis) { return count(Dims(d.begin(), d.begin() + axis)); }
  static std::int64_t inner_of(const Dims& d, std::int64_t axis) { return count(Dims(d.begin() + axis + 1, d.end())); }

  std::optional<Folded> gather(const Node& n, const std::vector<Folded>& in) {
    if (in.size() < 2 || in[0].dims.empty()) return std::nullopt;
    const Folded &data = in[0], &index = in[1];
    const std::int64_t a = axis(n, std::int64_t(data.dims.size()));
    const std::int64_t extent = data.dims[std::size_t(a)], outer = outer_of(data.dims, a), inner = inner_of(data.dims, a);
    Folded f{data.type, Dims(data.dims.begin(), data.dims.begin() + a), {}};
    f.dims.insert(f.dims.end(), index.dims.begin(), index.dims.end());
    f.dims.insert(f.dims.end(), data.dims.begin() + a + 1, data.dims.end());
    for (std::int64_t o = 0; o < outer; ++o)
      for (double iv : index.values) {
        auto i = std::int64_t(iv);
        if (i < 0) i += extent;
        if (i < 0 || i >= extent) fail(n, fmt::format("index {} is outside 0 to {}", std::int64_t(iv), extent - 1));
        for (std::int64_t k = 0; k < inner; ++k) f.values.push_back(data.values[std::size_t((o * extent + i) * inner + k)]);
      }
    return f;
  }

  // 1-D slices only: shape arithmetic.
  std::optional<Folded> slice(const Node& n, const std::vector<Folded>& in) {
    if (in.size() < 3 || in[0].dims.size() != 1 || in[1].values.size() != 1 || in[2].values.size() != 1)
      return std::nullopt;
    if (in.size() > 3 && !in[3].values.empty() && in[3].values != std::vector<double>{0} &&
        in[3].values != std::vector<double>{-1})
      fail(n, "a slice of a 1-D constant must be along axis 0");
    const std::int64_t size = in[0].dims[0];
    const std::int64_t step = in.size() > 4 && !in[4].values.empty() ? std::int64_t(in[4].values[0]) : 1;
    if (step == 0) fail(n, "step 0");
    auto bound = [&](double v, std::int64_t lo, std::int64_t hi) {  // ±2^63 - 1: to the end, not from it
      if (v > 1e18 || v < -1e18) return v > 0 ? hi : lo;
      auto b = std::int64_t(v);
      if (b < 0) b += size;
      return std::clamp(b, lo, hi);
    };
    const std::int64_t start = step > 0 ? bound(in[1].values[0], 0, size) : bound(in[1].values[0], -1, size - 1);
    const std::int64_t end = step > 0 ? bound(in[2].values[0], 0, size) : bound(in[2].values[0], -1, size - 1);
    Folded f{in[0].type, {0}, {}};
    for (std::int64_t i = start; step > 0 ? i < end : i > end; i += step) f.values.push_back(in[0].values[std::size_t(i)]);
    f.dims[0] = std::int64_t(f.values.size());
    return f;
  }

  std::optional<Folded> concat(const Node& n, const std::vector<Folded>& in) {
    Folded f{in[0].type, in[0].dims, {}};
    if (f.dims.empty()) return std::nullopt;
    const std::int64_t a = axis(n, std::int64_t(f.dims.size()));
    f.dims[std::size_t(a)] = 0;
    for (const auto& t : in) {
      if (t.dims.size() != in[0].dims.size()) fail(n, "inputs of different ranks");
      for (std::size_t d = 0; d < t.dims.size(); ++d)
        if (std::int64_t(d) != a && t.dims[d] != in[0].dims[d]) fail(n, "inputs differ outside the concat axis");
      f.dims[std::size_t(a)] += t.dims[std::size_t(a)];
    }
    const std::int64_t outer = outer_of(f.dims, a);
    for (std::int64_t o = 0; o < outer; ++o)
      for (const auto& t : in) {
        const std::int64_t run = t.dims[std::size_t(a)] * inner_of(t.dims, a);
        f.values.insert(f.values.end(), t.values.begin() + o * run, t.values.begin() + (o + 1) * run);
      }
    return f;
  }

  // Reshape-like ops: same values, new dims from the inferred output shape.
  std::optional<Folded> reshape(const Node& n, const std::vector<Folded>& in) {
    const auto it = m_.shapes.find(n.output(0));
    // A target computed by ops shape inference does not follow: from its folded values.
    const auto dims = it != m_.shapes.end() ? std::optional<Dims>(it->second)
                      : n.op_type() == "Reshape" && in.size() > 1 ? reshape_target(in[0].dims, in[1].values)
                                                                  : std::nullopt;
    if (!dims || count(*dims) != std::int64_t(in[0].values.size())) return std::nullopt;
    return Folded{in[0].type, *dims, in[0].values};
  }

  std::optional<Folded> cast(const Node& n, Folded in) {
    const auto* to = onnx_attribute(n, "to");
    if (!to) fail(n, "a Cast needs 'to'");
    in.type = int(to->i());
    if (in.type != onnx::TensorProto::FLOAT && in.type != onnx::TensorProto::DOUBLE &&
        in.type != onnx::TensorProto::INT64 && in.type != onnx::TensorProto::INT32)
      return std::nullopt;
    if (in.type != onnx::TensorProto::FLOAT && in.type != onnx::TensorProto::DOUBLE)
      for (auto& v : in.values) v = std::trunc(v);
    return in;
  }

  std::optional<Folded> unary(const Node& n, Folded in) {
    for (auto& v : in.values) v = n.op_type() == "Sqrt" ? std::sqrt(v) : -v;
    return in;
  }

  static bool integral(int type) { return type == onnx::TensorProto::INT64 || type == onnx::TensorProto::INT32; }

  // Element-wise with one side a single value, or both the same shape.
  std::optional<Folded> binary(const Node& n, const std::vector<Folded>& in) {
    static const std::map<std::string, std::function<double(double, double)>> ops = {
        {"Add", std::plus<>()}, {"Sub", std::minus<>()}, {"Mul", std::multiplies<>()},
        {"Div", std::divides<>()}, {"Pow", [](double a, double b) { return std::pow(a, b); }}};
    const auto op = ops.find(n.op_type());
    if (op == ops.end() || in.size() != 2) return std::nullopt;
    const Folded &a = in[0], &b = in[1];
    const bool a_one = a.values.size() == 1, b_one = b.values.size() == 1;
    if (!a_one && !b_one && a.dims != b.dims) return std::nullopt;
    Folded f{a.type, a_one && !b_one ? b.dims : a.dims, {}};
    const std::size_t size = std::max(a.values.size(), b.values.size());
    for (std::size_t i = 0; i < size; ++i) {
      const double x = a.values[a_one ? 0 : i], y = b.values[b_one ? 0 : i];
      if (n.op_type() == "Div" && integral(a.type)) {
        if (y == 0) fail(n, "divides an integer by zero");
        f.values.push_back(std::trunc(x / y));
      } else {
        f.values.push_back(op->second(x, y));
      }
    }
    return f;
  }

  OnnxModel& m_;
};

bool is_floating(const Folded& f) { return f.type == onnx::TensorProto::FLOAT || f.type == onnx::TensorProto::DOUBLE; }

// An integer result back from the doubles folding computes in. From 2^63 on it saturates:
// INT64_MAX (a Slice's "to the end") comes back from a double as 2^63, just past it, and
// converting that is undefined.
std::int64_t folded_integer(double v) {
  constexpr double kLimit = 9223372036854775808.0;  // 2^63
  if (v >= kLimit) return std::numeric_limits<std::int64_t>::max();
  if (v < -kLimit) return std::numeric_limits<std::int64_t>::min();
  return std::int64_t(v);
}

onnx::TensorProto to_tensor(const std::string& name, const Folded& f) {
  onnx::TensorProto t;
  t.set_name(name);
  for (auto d : f.dims) t.add_dims(d);
  const bool floating = is_floating(f);
  t.set_data_type(floating ? onnx::TensorProto::DOUBLE : onnx::TensorProto::INT64);
  for (double v : f.values) floating ? t.add_double_data(v) : t.add_int64_data(folded_integer(v));
  return t;
}

}  // namespace

const std::vector<std::string>& foldable_onnx_ops() {
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> names = {"Shape", "Gather", "Slice", "Concat", "Unsqueeze", "Squeeze", "Reshape",
                                      "Flatten", "Cast", "Sqrt", "Neg", "Add", "Sub", "Mul", "Div", "Pow"};
    names.insert(names.end(), shape_folding_ops().begin(), shape_folding_ops().end());
    return names;
  }();
  return ops;
}

void fold_constants(OnnxModel& m) {
  Folder folder(m);
  const auto& ops = foldable_onnx_ops();
  for (const auto& n : m.graph().node()) {
    if (n.output_size() != 1 || m.constant(n.output(0)) || std::find(ops.begin(), ops.end(), n.op_type()) == ops.end())
      continue;
    const auto f = folder.fold(n);
    if (!f || count(f->dims) != std::int64_t(f->values.size())) continue;
    if (!is_floating(*f) && std::any_of(f->values.begin(), f->values.end(), [](double v) { return std::isnan(v); }))
      m.fail(n, "its integer result is not a number (the square root of a negative integer, say)");
    m.constant_nodes.push_back(to_tensor(n.output(0), *f));
    m.constants[n.output(0)] = &m.constant_nodes.back();
    m.shapes[n.output(0)] = f->dims;
  }
}

}  // namespace npusim
