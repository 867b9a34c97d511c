// The importer's activations and element-wise products (docs/workload-format.md,
// "Activations and elementwise"): Sigmoid, HardSigmoid, HardSwish, Tanh, SiLU as
// x * Sigmoid(x) (and x * HardSigmoid(x) as hard swish), a Mul of two activations
// (squeeze-and-excitation gates) and a Mul by one constant per channel (layer scale).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxGraphImporter.h"
#include "apps/frontend/onnx/OnnxTensor.h"
#include "apps/frontend/workload/LayerChecks.h"

namespace npusim {

namespace {

using Node = onnx::NodeProto;

constexpr int kBoundedOutExponent = -7;  // sigmoid, hard sigmoid, tanh: |y| <= 1 in steps of 1/128

LayerKind activation_kind(const std::string& op) {
  if (op == "Sigmoid") return LayerKind::Sigmoid;
  if (op == "HardSigmoid") return LayerKind::HardSigmoid;
  if (op == "HardSwish") return LayerKind::HardSwish;
  return LayerKind::Tanh;
}

float float_attribute(const Node& n, const char* name, float fallback) {
  const auto* a = onnx_attribute(n, name);
  return a ? a->f() : fallback;
}

// The other input of a two-input node, given one of them.
const std::string& other_input(const Node& n, const std::string& one) {
  return n.input(0) == one ? n.input(1) : n.input(0);
}

}  // namespace

void OnnxGraphImporter::activation_op(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  if (!is_whole(in))
    fail(n, fmt::format("{} of a part of a tensor (after Split or Gather) is not supported", n.op_type()));
  // PyTorch's hardsigmoid is relu6(x + 3) / 6; ONNX's default slope is 0.2.
  if (n.op_type() == "HardSigmoid" && (std::abs(float_attribute(n, "alpha", 0.2f) - 1.0f / 6) > 1e-6f ||
                                       float_attribute(n, "beta", 0.5f) != 0.5f))
    fail(n, "only alpha = 1/6 and beta = 0.5 (PyTorch's hardsigmoid, relu6(x + 3) / 6) are supported");
  LayerKind kind = activation_kind(n.op_type());
  Node layer_node = n;
  // x * Sigmoid(x) is SiLU, x * HardSigmoid(x) hard swish: one layer, fused into the Mul.
  const Node* product = sole_consumer(n.output(0));
  const bool gates_itself = product && product->op_type() == "Mul" && product->input_size() == 2 &&
                            other_input(*product, n.output(0)) == n.input(0);
  if (gates_itself && (kind == LayerKind::Sigmoid || kind == LayerKind::HardSigmoid)) {
    kind = kind == LayerKind::Sigmoid ? LayerKind::Silu : LayerKind::HardSwish;
    fused_.insert(product);
    layer_node = *product;  // named as PyTorch names nn.SiLU's nodes: its module's path
  }
  emit_activation(layer_node, kind, in);
}

void OnnxGraphImporter::emit_activation(const Node& n, LayerKind kind, const OnnxValue& in) {
  const int frac_bits = scale_within(n, -in.exponent, 0, 7, "the input's fraction bits (minus its scale exponent)");
  OnnxValue out = in;
  out.affine = nullptr;
  const bool bounded = kind == LayerKind::Sigmoid || kind == LayerKind::HardSigmoid || kind == LayerKind::Tanh;
  if (bounded) out.exponent = kBoundedOutExponent;
  OnnxLayer layer = onnx_layer(kind);
  layer.frac_bits = frac_bits;
  emit(n, std::move(layer), in, out);
}

// Two activations of one shape and layout, or an [N, C, H, W] map times an [N, C, 1, 1]
// gate (squeeze-and-excitation): y = a * b, requantized by a shift of 7.
void OnnxGraphImporter::multiply_activations(const Node& n) {
  if (n.input(0) == n.input(1) && gelu_tanh(n)) return;
  const OnnxValue *a = &activation(n, 0), *b = &activation(n, 1);
  const auto is_gate = [](const OnnxValue& v) { return is_nchw(v) && v.map.h == 1 && v.map.w == 1; };
  if (is_gate(*a) && !is_gate(*b)) std::swap(a, b);  // the gate goes second
  const bool alike = same_view(*a, *b) && is_whole(*a);
  const bool gated = is_nchw(*a) && is_gate(*b) && b->map.c == a->map.c && b->batch == a->batch;
  if (!alike && !gated)
    fail(n, fmt::format("a Mul of two activations needs two of one shape and layout, or an [N, C, H, W] map and an "
                        "[N, C, 1, 1] gate; got [{}] and [{}]",
                        fmt::join(dims(n, n.input(0)), ", "), fmt::join(dims(n, n.input(1)), ", ")));
  if (b->affine) unapplied_affine(n);  // emit() checks a's
  OnnxValue out = *a;
  out.affine = nullptr;
  out.probabilities = false;
  out.exponent = a->exponent + b->exponent + int(kMulShift);  // int8 x int8 >> 7 fits int8 again
  OnnxLayer product = onnx_layer(LayerKind::Mul);
  product.layer.inputs = {a->tensor, b->tensor};
  product.shift = kMulShift;
  emit(n, std::move(product), *a, out);
}

// A Mul by one constant per channel (a ConvNeXt block's layer scale) is a depthwise 1x1
// conv with those constants as its weights.
void OnnxGraphImporter::layer_scale(const Node& n, int constant_input) {
  const OnnxValue& in = activation(n, 1 - constant_input);
  const std::vector<double> scale = constant_values(n, constant_input);
  const auto& sd = dims(n, n.input(constant_input));
  const bool ones_but_one = std::count(sd.begin(), sd.end(), 1) + 1 == std::ptrdiff_t(sd.size());
  const bool per_channel = scale.size() == in.map.c && is_whole(in) &&
                           ((is_rows(in) && (sd.size() <= 1 || ones_but_one)) ||
                            (is_nchw(in) && sd.size() >= 3 && sd[sd.size() - 3] == in.map.c && ones_but_one));
  if (!per_channel)
    fail(n, "a Mul by a constant is supported for one number, or one value per channel (a layer scale)");
  emit_channel_scale(n, in, in, scale, std::vector<double>(in.map.c, 0.0));
}

}  // namespace npusim

namespace npusim {

namespace {

// GELU's tanh form, 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
double gelu_tanh_value(double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))); }

// The ops of the tanh form's chain, on numbers.
double scalar_op(const std::string& op, double a, double b) {
  if (op == "Mul") return a * b;
  if (op == "Add") return a + b;
  if (op == "Sub") return a - b;
  if (op == "Div") return a / b;
  if (op == "Pow") return std::pow(a, b);
  return std::tanh(a);
}

}  // namespace

// The nodes that read only x, constants and each other's results, from the first
// reader of x on (a bounded scan): the candidate chain, in graph order.
std::vector<const onnx::NodeProto*> OnnxGraphImporter::chain_from(const std::string& x) const {
  static const std::set<std::string> ops = {"Mul", "Add", "Sub", "Div", "Pow", "Tanh"};
  std::set<std::string> inside = {x};
  std::vector<const Node*> chain;
  int scanned = 0;
  for (const auto& m : model_.graph().node()) {
    const bool reads_x = std::find(m.input().begin(), m.input().end(), x) != m.input().end();
    if (chain.empty() && !reads_x) continue;
    if (++scanned > 48 || chain.size() >= 16) break;
    const bool member = ops.count(m.op_type()) && m.output_size() == 1 &&
                        std::all_of(m.input().begin(), m.input().end(), [&](const std::string& in) {
                          return inside.count(in) || model_.constant(in);
                        });
    if (!member) continue;
    chain.push_back(&m);
    inside.insert(m.output(0));
  }
  return chain;
}

// The tanh form of GELU as exporters write it (GPT-2's NewGELU, F.gelu(approximate='tanh'))
// in any order of its products: the chain from x's first reader to the one node whose
// result leaves it, which must compute gelu_tanh at a few points. That node, or nullptr.
const onnx::NodeProto* OnnxGraphImporter::gelu_tanh_pattern(const std::string& x,
                                                             std::vector<const Node*>& chain) const {
  chain = chain_from(x);
  std::set<std::string> values;
  for (const Node* m : chain) values.insert(m->output(0));
  const Node* exit = nullptr;
  int tanhs = 0;
  for (const Node* m : chain) {
    tanhs += m->op_type() == "Tanh";
    int inside_reads = 0;
    for (const Node* r : chain) inside_reads += int(std::count(r->input().begin(), r->input().end(), m->output(0)));
    const auto total = consumers_.find(m->output(0));
    if (total != consumers_.end() && total->second > inside_reads) {
      if (exit) return nullptr;  // two results leave the chain
      exit = m;
    }
  }
  if (!exit || tanhs != 1) return nullptr;
  for (const double probe : {-3.0, -1.0, -0.25, 0.5, 1.5, 4.0}) {
    std::map<std::string, double> v = {{x, probe}};
    for (const Node* m : chain) {
      std::vector<double> in;
      for (const auto& name : m->input()) {
        if (v.count(name)) { in.push_back(v[name]); continue; }
        const std::vector<double> c = tensor_values(*model_.constant(name), model_.file);
        if (c.size() != 1) return nullptr;
        in.push_back(c[0]);
      }
      v[m->output(0)] = scalar_op(m->op_type(), in[0], in.size() > 1 ? in[1] : 0);
    }
    if (std::abs(v[exit->output(0)] - gelu_tanh_value(probe)) > 1e-5 * (1 + std::abs(probe))) return nullptr;
  }
  return exit;
}

// Mul(x, x) or Pow(x, 3) opening GELU's tanh form: the whole chain is one gelu layer.
bool OnnxGraphImporter::gelu_tanh(const Node& n) {
  std::vector<const Node*> chain;
  const Node* exit = gelu_tanh_pattern(n.input(0), chain);
  if (!exit) return false;
  const OnnxValue& in = activation(n, 0);
  if (!is_whole(in)) fail(n, "GELU of a part of a tensor (after Split or Gather) is not supported");
  for (const Node* m : chain) fused_.insert(m);
  emit_gelu(n, *exit, in);
  ++tanh_gelus_;
  return true;
}

void OnnxGraphImporter::power(const Node& n) {
  if (!gelu_tanh(n)) refused(n);
}

}  // namespace npusim
