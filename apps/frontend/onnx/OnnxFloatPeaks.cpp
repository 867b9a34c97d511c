#include "apps/frontend/onnx/OnnxFloatPeaks.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxLayout.h"
#include "apps/frontend/onnx/OnnxTensor.h"

namespace npusim {

namespace {

using Dims = std::vector<std::int64_t>;
using Node = onnx::NodeProto;

struct Tensor {
  Dims dims;
  std::vector<double> v;
};

double attr_float(const Node& n, const char* name, double fallback) {
  const auto* a = onnx_attribute(n, name);
  return a ? a->f() : fallback;
}

// Element `flat` of a tensor of `out` dims, read from `t` broadcast numpy-style to them.
double broadcast_at(const Tensor& t, const Dims& out, std::int64_t flat) {
  std::int64_t at = 0, stride = 1;
  for (std::size_t k = out.size(); k-- > 0;) {
    const std::int64_t i = flat % out[k];
    flat /= out[k];
    const std::size_t tk = k + t.dims.size() - out.size();
    if (k + t.dims.size() < out.size()) continue;  // t has no such axis
    if (t.dims[tk] != 1) at += i * stride;
    stride *= t.dims[tk];
  }
  return t.v[std::size_t(at)];
}

class FloatGraph {
 public:
  explicit FloatGraph(const OnnxModel& m) : m_(m) {}
  std::map<std::string, Tensor> values;

  const Tensor& in(const Node& n, int i) {
    auto it = values.find(n.input(i));
    if (it != values.end()) return it->second;
    const auto* c = m_.constant(n.input(i));
    if (!c) m_.fail(n, "reads a value the calibration's float evaluation has not computed");
    Tensor t{Dims(c->dims().begin(), c->dims().end()), tensor_values(*c, m_.file)};
    return values[n.input(i)] = std::move(t);
  }
  Tensor out_like(const Node& n) const { return {m_.shape(n.output(0), n), {}}; }

  Tensor elementwise(const Node& n, double (*f)(double, double)) {
    Tensor y = out_like(n);
    const Tensor &a = in(n, 0), &b = in(n, 1);
    const std::int64_t count = saturating_product(y.dims);
    for (std::int64_t i = 0; i < count; ++i) y.v.push_back(f(broadcast_at(a, y.dims, i), broadcast_at(b, y.dims, i)));
    return y;
  }
  Tensor unary(const Node& n, const std::function<double(double)>& f) {
    Tensor y = in(n, 0);
    y.dims = m_.shape(n.output(0), n);  // Flatten, Reshape, ...: the same elements in order
    for (double& v : y.v) v = f(v);
    return y;
  }
  Tensor conv(const Node& n);
  Tensor window(const Node& n, bool max, bool global);
  Tensor gemm(const Node& n);
  Tensor batch_norm(const Node& n);
  Tensor concat(const Node& n);
  Tensor run(const Node& n);

 private:
  const OnnxModel& m_;
};

Tensor FloatGraph::conv(const Node& n) {
  const Tensor &x = in(n, 0), &w = in(n, 1);
  const Tensor* b = n.input_size() > 2 && !n.input(2).empty() ? &in(n, 2) : nullptr;
  Tensor y = out_like(n);
  const auto s = onnx_ints(n, "strides", {1, 1}), p = onnx_ints(n, "pads", {0, 0, 0, 0}),
             d = onnx_ints(n, "dilations", {1, 1});
  const std::int64_t g = onnx_int(n, "group", 1), co = w.dims[0], cig = w.dims[1], kh = w.dims[2], kw = w.dims[3];
  const std::int64_t H = x.dims[2], W = x.dims[3], ho = y.dims[2], wo = y.dims[3];
  for (std::int64_t i = 0; i < y.dims[0]; ++i)
    for (std::int64_t o = 0; o < co; ++o)
      for (std::int64_t oy = 0; oy < ho; ++oy)
        for (std::int64_t ox = 0; ox < wo; ++ox) {
          double acc = b ? b->v[std::size_t(o)] : 0;
          const std::int64_t first = o / (co / g) * cig;
          for (std::int64_t c = 0; c < cig; ++c)
            for (std::int64_t ky = 0; ky < kh; ++ky)
              for (std::int64_t kx = 0; kx < kw; ++kx) {
                const std::int64_t iy = oy * s[0] - p[0] + ky * d[0], ix = ox * s[1] - p[1] + kx * d[1];
                if (iy < 0 || ix < 0 || iy >= H || ix >= W) continue;
                acc += x.v[std::size_t(((i * x.dims[1] + first + c) * H + iy) * W + ix)] *
                       w.v[std::size_t(((o * cig + c) * kh + ky) * kw + kx)];
              }
          y.v.push_back(acc);
        }
  return y;
}

// MaxPool, AveragePool (padding counted only with count_include_pad), their global forms.
Tensor FloatGraph::window(const Node& n, bool max, bool global) {
  const Tensor& x = in(n, 0);
  Tensor y = out_like(n);
  const std::int64_t H = x.dims[2], W = x.dims[3];
  const auto k = global ? Dims{H, W} : onnx_ints(n, "kernel_shape", {1, 1});
  const auto s = global ? Dims{1, 1} : onnx_ints(n, "strides", {1, 1});
  const auto p = global ? Dims{0, 0, 0, 0} : onnx_ints(n, "pads", {0, 0, 0, 0});
  for (std::int64_t plane = 0; plane < y.dims[0] * y.dims[1]; ++plane)
    for (std::int64_t oy = 0; oy < y.dims[2]; ++oy)
      for (std::int64_t ox = 0; ox < y.dims[3]; ++ox) {
        double acc = max ? -INFINITY : 0;
        int count = 0;
        for (std::int64_t ky = 0; ky < k[0]; ++ky)
          for (std::int64_t kx = 0; kx < k[1]; ++kx) {
            const std::int64_t iy = oy * s[0] - p[0] + ky, ix = ox * s[1] - p[1] + kx;
            if (iy < 0 || ix < 0 || iy >= H || ix >= W) continue;
            const double v = x.v[std::size_t((plane * H + iy) * W + ix)];
            acc = max ? std::max(acc, v) : acc + v;
            ++count;
          }
        if (onnx_int(n, "count_include_pad", 0) == 1) count = int(k[0] * k[1]);
        y.v.push_back(max ? acc : acc / std::max(count, 1));
      }
  return y;
}

// Gemm (alpha = beta = 1) and MatMul with a constant [k, n]: rows of the last axis.
Tensor FloatGraph::gemm(const Node& n) {
  const Tensor &x = in(n, 0), &w = in(n, 1);
  const bool trans_b = n.op_type() == "Gemm" && onnx_int(n, "transB", 0) == 1;
  const Tensor* b = n.input_size() > 2 && !n.input(2).empty() ? &in(n, 2) : nullptr;
  Tensor y = out_like(n);
  const std::int64_t k = x.dims.back(), cols = y.dims.back(), rows = saturating_product(x.dims) / k;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) {
      double acc = b ? b->v[std::size_t(b->v.size() == 1 ? 0 : c)] : 0;
      for (std::int64_t i = 0; i < k; ++i)
        acc += x.v[std::size_t(r * k + i)] * w.v[std::size_t(trans_b ? c * k + i : i * cols + c)];
      y.v.push_back(acc);
    }
  return y;
}

Tensor FloatGraph::batch_norm(const Node& n) {
  Tensor y = in(n, 0);
  const double eps = attr_float(n, "epsilon", 1e-5);
  const auto &gamma = in(n, 1).v, &beta = in(n, 2).v, &mean = in(n, 3).v, &var = in(n, 4).v;
  const std::int64_t c = y.dims[1], plane = saturating_product(y.dims) / (y.dims[0] * c);
  for (std::size_t i = 0; i < y.v.size(); ++i) {
    const auto ch = std::size_t(std::int64_t(i) / plane % c);
    y.v[i] = (y.v[i] - mean[ch]) / std::sqrt(var[ch] + eps) * gamma[ch] + beta[ch];
  }
  return y;
}

// Along `axis`: each input's block of dims[axis..] elements in turn, for every index before it.
Tensor FloatGraph::concat(const Node& n) {
  Tensor y = out_like(n);
  std::int64_t axis = onnx_int(n, "axis", 0);
  if (axis < 0) axis += std::int64_t(y.dims.size());
  const std::int64_t outer = saturating_product(Dims(y.dims.begin(), y.dims.begin() + axis));
  for (std::int64_t o = 0; o < outer; ++o)
    for (int i = 0; i < n.input_size(); ++i) {
      const Tensor& x = in(n, i);
      const auto block = std::size_t(saturating_product(x.dims) / std::max<std::int64_t>(outer, 1));
      y.v.insert(y.v.end(), x.v.begin() + std::ptrdiff_t(std::size_t(o) * block),
                 x.v.begin() + std::ptrdiff_t(std::size_t(o + 1) * block));
    }
  return y;
}

double hard_sigmoid(double x) { return std::clamp(x / 6 + 0.5, 0.0, 1.0); }

Tensor FloatGraph::run(const Node& n) {
  const std::string& op = n.op_type();
  if (op == "Conv") return conv(n);
  if (op == "Tanh") return unary(n, [](double x) { return std::tanh(x); });
  if (op == "MaxPool" || op == "AveragePool") return window(n, op == "MaxPool", false);
  if (op == "GlobalAveragePool" || op == "GlobalMaxPool") return window(n, op == "GlobalMaxPool", true);
  const bool by_weights = n.input_size() > 1 && m_.constant(n.input(1));  // not attention's product of activations
  if ((op == "Gemm" || op == "MatMul") && by_weights) return gemm(n);
  if (op == "BatchNormalization") return batch_norm(n);
  if (op == "Add") return elementwise(n, [](double a, double b) { return a + b; });
  if (op == "Mul") return elementwise(n, [](double a, double b) { return a * b; });
  if (op == "Sub") return elementwise(n, [](double a, double b) { return a - b; });
  if (op == "Div") return elementwise(n, [](double a, double b) { return a / b; });
  if (op == "Concat") return concat(n);
  if (op == "Relu") return unary(n, [](double x) { return std::max(x, 0.0); });
  if (op == "Sigmoid") return unary(n, [](double x) { return 1 / (1 + std::exp(-x)); });
  if (op == "HardSigmoid") {
    const double a = attr_float(n, "alpha", 0.2), b = attr_float(n, "beta", 0.5);
    return unary(n, [a, b](double x) { return std::clamp(a * x + b, 0.0, 1.0); });
  }
  if (op == "HardSwish") return unary(n, [](double x) { return x * hard_sigmoid(x); });
  if (op == "Clip") {
    const double lo = n.input_size() > 1 && !n.input(1).empty() ? in(n, 1).v[0] : -INFINITY;
    const double hi = n.input_size() > 2 && !n.input(2).empty() ? in(n, 2).v[0] : INFINITY;
    return unary(n, [lo, hi](double x) { return std::clamp(x, lo, hi); });
  }
  static const std::set<std::string> moves = {"Flatten", "Reshape", "Identity", "Dropout", "Squeeze", "Unsqueeze"};
  if (moves.count(op)) return unary(n, [](double x) { return x; });
  m_.fail(n, "is an op the calibration's float evaluation (--calibrate) does not take; run without --calibrate");
}

}  // namespace

void raise_float_peaks(const OnnxModel& model, const std::vector<double>& input, std::map<std::string, double>& peaks) {
  FloatGraph g(model);
  g.values[model.input] = {model.shapes.at(model.input), input};
  for (const auto& n : model.graph().node()) {
    if (n.op_type() == "Constant" || model.constant(n.output(0))) continue;
    Tensor y = g.run(n);
    double& peak = peaks[n.output(0)];
    for (double v : y.v) peak = std::max(peak, std::fabs(v));
    g.values[n.output(0)] = std::move(y);
  }
}

}  // namespace npusim
