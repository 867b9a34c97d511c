// A plain evaluator of the test graphs' ops, NCHW, float (see OnnxTestGraph.h).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "onnx/OnnxTestGraph.h"

namespace {

using Value = OnnxReference::Value;
using Dims = OnnxTestGraph::Dims;

std::vector<double> floats(const onnx::TensorProto& t) {
  if (t.data_type() == onnx::TensorProto::INT64) return {t.int64_data().begin(), t.int64_data().end()};
  return {t.float_data().begin(), t.float_data().end()};
}

std::vector<std::int64_t> attr(const onnx::NodeProto& n, const char* name, std::vector<std::int64_t> fallback) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return a.type() == onnx::AttributeProto::INT ? Dims{a.i()} : Dims(a.ints().begin(), a.ints().end());
  return fallback;
}

// The documented weight step: the smallest power of two with max|w| / step <= 127.
double weight_step(const std::vector<double>& w) {
  double peak = 0;
  for (double v : w) peak = std::max(peak, std::fabs(v));
  return peak == 0 ? 1 : std::exp2(std::ceil(std::log2(peak / 127.0)));
}

struct Evaluator {
  const onnx::ModelProto& model;
  bool int8;
  std::map<std::string, Value>& values;
  std::map<std::string, std::vector<double>> constants;

  // Rounds half up (int8 mode) and saturates like an int8 tensor.
  double store(double y) const { return std::clamp(int8 ? std::floor(y + 0.5) : y, -128.0, 127.0); }

  // Conv (and, with `scale`, a BatchNormalization folded into it): weights [co, ci/g, k, k],
  // plus `bias` per output channel (empty = none). npusim rounds a bias to the accumulator's
  // step (the input's step times the weights'): half a weight step more in the bound.
  Value conv(const onnx::NodeProto& n, const Value& x, std::vector<double> w, const std::vector<double>& scale,
             const std::vector<double>& bias) {
    const auto& t = *std::find_if(model.graph().initializer().begin(), model.graph().initializer().end(),
                                  [&](const onnx::TensorProto& i) { return i.name() == n.input(1); });
    const std::int64_t co = t.dims(0), cig = t.dims(1), kh = t.dims(2), kw = t.dims(3);
    if (!scale.empty())
      for (std::int64_t o = 0; o < co; ++o)
        for (std::int64_t i = 0; i < cig * kh * kw; ++i) w[std::size_t(o * cig * kh * kw + i)] *= scale[std::size_t(o)];
    const std::int64_t group = attr(n, "group", {1})[0];
    const auto s = attr(n, "strides", {1, 1}), p = attr(n, "pads", {0, 0, 0, 0}), d = attr(n, "dilations", {1, 1});
    const std::int64_t N = x.dims[0], H = x.dims[2], W = x.dims[3];
    const std::int64_t ho = (H + p[0] + p[2] - d[0] * (kh - 1) - 1) / s[0] + 1;
    const std::int64_t wo = (W + p[1] + p[3] - d[1] * (kw - 1) - 1) / s[1] + 1;
    const double step = weight_step(w);
    Value y{{N, co, ho, wo}, {}, {}};
    for (std::int64_t b = 0; b < N; ++b)
      for (std::int64_t o = 0; o < co; ++o)
        for (std::int64_t oy = 0; oy < ho; ++oy)
          for (std::int64_t ox = 0; ox < wo; ++ox) {
            double acc = bias.empty() ? 0 : bias[std::size_t(o)], bound = bias.empty() ? 0.5 : 0.5 + step / 2;
            const std::int64_t first = (o / (co / group)) * cig;
            for (std::int64_t i = 0; i < cig; ++i)
              for (std::int64_t ky = 0; ky < kh; ++ky)
                for (std::int64_t kx = 0; kx < kw; ++kx) {
                  const std::int64_t iy = oy * s[0] - p[0] + ky * d[0], ix = ox * s[1] - p[1] + kx * d[1];
                  if (iy < 0 || ix < 0 || iy >= H || ix >= W) continue;
                  const std::size_t at = std::size_t(((b * x.dims[1] + first + i) * H + iy) * W + ix);
                  const double wv = w[std::size_t(((o * cig + i) * kh + ky) * kw + kx)];
                  acc += x.v[at] * wv;
                  bound += std::fabs(wv) * x.bound[at] + (std::fabs(x.v[at]) + x.bound[at]) * step / 2;
                }
            y.v.push_back(store(acc));
            y.bound.push_back(bound);
          }
    return y;
  }

  // Gemm (transB = 1, weights [n, k]) and MatMul (weights [k, n]) over the last axis.
  Value dense(const Value& x, const std::vector<double>& w, std::int64_t k, std::int64_t nout, bool trans,
              const std::vector<double>& bias) {
    const double step = weight_step(w);
    Value y{x.dims, {}, {}};
    y.dims.back() = nout;
    for (std::size_t row = 0; row < x.v.size() / std::size_t(k); ++row)
      for (std::int64_t o = 0; o < nout; ++o) {
        double acc = bias.empty() ? 0 : bias[std::size_t(o)], bound = bias.empty() ? 0.5 : 0.5 + step / 2;
        for (std::int64_t i = 0; i < k; ++i) {
          const std::size_t at = row * std::size_t(k) + std::size_t(i);
          const double wv = trans ? w[std::size_t(o * k + i)] : w[std::size_t(i * nout + o)];
          acc += x.v[at] * wv;
          bound += std::fabs(wv) * x.bound[at] + (std::fabs(x.v[at]) + x.bound[at]) * step / 2;
        }
        y.v.push_back(store(acc));
        y.bound.push_back(bound);
      }
    return y;
  }

  // Max or average windows; global ones over the whole map. An average divides by the
  // real positions, or with count_include_pad by those inside the padded map.
  Value pool(const onnx::NodeProto& n, const Value& x, bool max, bool global) {
    const std::int64_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3];
    const auto k = global ? Dims{H, W} : attr(n, "kernel_shape", {});
    const auto s = global ? Dims{1, 1} : attr(n, "strides", {1, 1});
    const auto p = global ? Dims{0, 0, 0, 0} : attr(n, "pads", {0, 0, 0, 0});
    const bool ceil = attr(n, "ceil_mode", {0})[0] != 0, count_pad = attr(n, "count_include_pad", {0})[0] != 0;
    auto outputs = [&](std::int64_t span, std::int64_t stride) { return (ceil ? span + stride - 1 : span) / stride + 1; };
    const std::int64_t ho = outputs(H + p[0] + p[2] - k[0], s[0]), wo = outputs(W + p[1] + p[3] - k[1], s[1]);
    Value y{{N, C, ho, wo}, {}, {}};
    for (std::int64_t b = 0; b < N; ++b)
      for (std::int64_t c = 0; c < C; ++c)
        for (std::int64_t oy = 0; oy < ho; ++oy)
          for (std::int64_t ox = 0; ox < wo; ++ox) {
            double acc = max ? -1e300 : 0, bound = 0;
            int count = 0;
            for (std::int64_t ky = 0; ky < k[0]; ++ky)
              for (std::int64_t kx = 0; kx < k[1]; ++kx) {
                const std::int64_t iy = oy * s[0] - p[0] + ky, ix = ox * s[1] - p[1] + kx;
                const bool padded = iy >= -p[0] && ix >= -p[1] && iy < H + p[2] && ix < W + p[3];
                if (count_pad && padded && (iy < 0 || ix < 0 || iy >= H || ix >= W)) ++count;
                if (iy < 0 || ix < 0 || iy >= H || ix >= W) continue;
                const std::size_t at = std::size_t(((b * C + c) * H + iy) * W + ix);
                acc = max ? std::max(acc, x.v[at]) : acc + x.v[at];
                bound = max ? std::max(bound, x.bound[at]) : bound + x.bound[at];
                ++count;
              }
            y.v.push_back(max ? acc : store(acc / count));
            y.bound.push_back(max ? bound : bound / count + 0.5);
          }
    return y;
  }

  // x·scale per channel, its scale an int8 weight like a 1x1 depthwise conv's.
  Value channel_scale(const Value& x, const std::vector<double>& scale) {
    const double step = weight_step(scale);
    Value y = x;
    const std::int64_t C = x.dims[1], plane = x.dims[2] * x.dims[3];
    for (std::size_t i = 0; i < x.v.size(); ++i) {
      const double w = scale[std::size_t(std::int64_t(i) / plane % C)];
      y.v[i] = store(x.v[i] * w);
      y.bound[i] = 0.5 + std::fabs(w) * x.bound[i] + (std::fabs(x.v[i]) + x.bound[i]) * step / 2;
    }
    return y;
  }

  // Indices [start, end) of one axis (constant bounds, step 1; negative from the end).
  Value slice(const Value& x, const std::vector<double>& starts, const std::vector<double>& ends,
              const std::vector<double>& axes) {
    const auto rank = std::int64_t(x.dims.size());
    const auto axis = std::size_t(axes[0] < 0 ? std::int64_t(axes[0]) + rank : std::int64_t(axes[0]));
    const std::int64_t extent = x.dims[axis];
    auto bound = [&](double v) { return std::clamp<std::int64_t>(v < 0 ? std::int64_t(v) + extent : std::int64_t(v), 0, extent); };
    const std::int64_t start = bound(starts[0]), end = bound(ends[0]);
    std::int64_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < axis; ++d) outer *= x.dims[d];
    for (std::size_t d = axis + 1; d < x.dims.size(); ++d) inner *= x.dims[d];
    Value y{x.dims, {}, {}};
    y.dims[axis] = end - start;
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = start * inner; i < end * inner; ++i) {
        y.v.push_back(x.v[std::size_t(o * extent * inner + i)]);
        y.bound.push_back(x.bound[std::size_t(o * extent * inner + i)]);
      }
    return y;
  }

  // The pads of a Pad node: its constant input (opset 11 on) or attribute.
  Dims constants_or_ints(const onnx::NodeProto& n) {
    if (n.input_size() < 2) return attr(n, "pads", {});
    Dims p;
    for (double v : constants.at(n.input(1))) p.push_back(std::int64_t(v));
    return p;
  }

  // Zeros around H and W (pads [0, 0, top, left, 0, 0, bottom, right]).
  Value pad(const Value& x, const Dims& p) {
    const std::int64_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3];
    Value y{{N, C, H + p[2] + p[6], W + p[3] + p[7]}, {}, {}};
    for (std::int64_t b = 0; b < N; ++b)
      for (std::int64_t c = 0; c < C; ++c)
        for (std::int64_t iy = -p[2]; iy < H + p[6]; ++iy)
          for (std::int64_t ix = -p[3]; ix < W + p[7]; ++ix) {
            const bool inside = iy >= 0 && ix >= 0 && iy < H && ix < W;
            const std::size_t at = std::size_t(((b * C + c) * H + iy) * W + ix);
            y.v.push_back(inside ? x.v[at] : 0.0);
            y.bound.push_back(inside ? x.bound[at] : 0.0);
          }
    return y;
  }

  // The inputs one after the other along `axis`: per index of the axes before it, each
  // input's block of the axes from it on.
  Value concat(const onnx::NodeProto& n) {
    Value y = values.at(n.input(0));
    std::int64_t a = attr(n, "axis", {0})[0];
    const auto axis = std::size_t(a < 0 ? a + std::int64_t(y.dims.size()) : a);
    std::int64_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < axis; ++d) outer *= y.dims[d];
    for (std::size_t d = axis + 1; d < y.dims.size(); ++d) inner *= y.dims[d];
    y.v.clear(), y.bound.clear(), y.dims[axis] = 0;
    for (const auto& name : n.input()) y.dims[axis] += values.at(name).dims[axis];
    for (std::int64_t o = 0; o < outer; ++o)
      for (const auto& name : n.input()) {
        const Value& x = values.at(name);
        const auto block = std::size_t(x.dims[axis] * inner), from = std::size_t(o) * block;
        y.v.insert(y.v.end(), x.v.begin() + std::ptrdiff_t(from), x.v.begin() + std::ptrdiff_t(from + block));
        y.bound.insert(y.bound.end(), x.bound.begin() + std::ptrdiff_t(from), x.bound.begin() + std::ptrdiff_t(from + block));
      }
    return y;
  }

  std::vector<double> optional_constant(const onnx::NodeProto& n, int input) const {
    return n.input_size() > input && !n.input(input).empty() ? constants.at(n.input(input)) : std::vector<double>{};
  }

  // A Linear's bias Add (MatMul, then Add of one value per output): npusim adds the bias in
  // the MatMul's requantization, before the int8 rounding, so the MatMul is recomputed with it.
  Value matmul_with_bias(const onnx::NodeProto& add) {
    const auto& m = *std::find_if(model.graph().node().begin(), model.graph().node().end(),
                                  [&](const onnx::NodeProto& p) { return p.output(0) == add.input(0); });
    const Value& in = values.at(m.input(0));
    const auto& w = constants.at(m.input(1));
    const std::int64_t k = in.dims.back();
    return dense(in, w, k, std::int64_t(w.size()) / k, m.op_type() == "Gemm", constants.at(add.input(1)));
  }

  void run(const onnx::NodeProto& n) {
    const std::string& op = n.op_type();
    const Value& x = values.at(n.input(0));
    Value y = x;
    if (op == "Conv") {
      y = conv(n, x, constants.at(n.input(1)), {}, optional_constant(n, 2));
    } else if (op == "BatchNormalization") {
      // After a conv, folded exactly as the importer documents it: recompute the conv with
      // scaled weights. Elsewhere a per-channel scale (mean and beta are 0 in the tests).
      const auto& nodes = model.graph().node();
      const auto conv_node = std::find_if(nodes.begin(), nodes.end(), [&](const onnx::NodeProto& c) {
        return c.output(0) == n.input(0) && c.op_type() == "Conv";
      });
      const auto& g = constants.at(n.input(1)), & v = constants.at(n.input(4));
      const auto& beta = constants.at(n.input(2)), & mean = constants.at(n.input(3));
      std::vector<double> scale, shift;
      for (std::size_t i = 0; i < g.size(); ++i) scale.push_back(g[i] / std::sqrt(v[i] + 1e-5));
      if (conv_node == nodes.end()) {
        y = channel_scale(x, scale);
      } else {
        const std::vector<double> bias = optional_constant(*conv_node, 2);
        for (std::size_t i = 0; i < g.size(); ++i)
          shift.push_back(((bias.empty() ? 0 : bias[i]) - mean[i]) * scale[i] + beta[i]);
        y = conv(*conv_node, values.at(conv_node->input(0)), constants.at(conv_node->input(1)), scale, shift);
      }
    } else if (op == "Relu" || op == "Clip") {
      for (auto& e : y.v) e = std::max(e, 0.0);  // Clip's 6 is documented as not applied
    } else if (op == "Add" && constants.count(n.input(1))) {
      y = matmul_with_bias(n);
    } else if (op == "Add") {
      const Value& b = values.at(n.input(1));
      for (std::size_t i = 0; i < y.v.size(); ++i) y.v[i] = store(x.v[i] + b.v[i]), y.bound[i] += b.bound[i];
    } else if (op == "MaxPool" || op == "GlobalMaxPool") {
      y = pool(n, x, true, op == "GlobalMaxPool");
    } else if (op == "AveragePool" || op == "GlobalAveragePool" || op == "ReduceMean") {
      y = pool(n, x, false, op != "AveragePool");  // ReduceMean over H and W
      if (op == "ReduceMean" && attr(n, "keepdims", {1})[0] == 0) y.dims = {y.dims[0], y.dims[1]};
    } else if (op == "Slice") {
      y = slice(x, constants.at(n.input(1)), constants.at(n.input(2)), constants.at(n.input(3)));
    } else if (op == "Pad") {
      y = pad(x, constants_or_ints(n));
    } else if (op == "Flatten") {
      y.dims = {x.dims[0], std::int64_t(x.v.size()) / x.dims[0]};
    } else if (op == "Concat") {
      y = concat(n);
    } else if (op == "Gemm" || op == "MatMul") {
      const auto& w = constants.at(n.input(1));
      const std::int64_t k = x.dims.back(), nout = std::int64_t(w.size()) / k;
      y = dense(x, w, k, nout, op == "Gemm", optional_constant(n, 2));
    } else {
      throw std::logic_error("OnnxReference: no reference for " + op);
    }
    values[n.output(0)] = std::move(y);
  }
};

}  // namespace

OnnxReference::OnnxReference(const onnx::ModelProto& model, Value input, bool int8) {
  values[model.graph().input(0).name()] = std::move(input);
  Evaluator e{model, int8, values, {}};
  for (const auto& t : model.graph().initializer()) e.constants[t.name()] = floats(t);
  for (const auto& n : model.graph().node()) e.run(n);
}
