#include "apps/frontend/onnx/OnnxGraphImporter.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "apps/frontend/workload/LayerChecks.h"
#include "apps/frontend/onnx/OnnxConstantFolding.h"
#include "apps/frontend/onnx/OnnxNodeChecks.h"
#include "apps/frontend/onnx/OnnxTensor.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {


// [N, C, H, W] is an image; [N, S, D] a sequence, one token per row (h = S, w = 1, as
// the bundled transformer workloads have them); [N, K] a vector. An image's int8 steps
// are 1 (pixels); a sequence's token embeddings are values of order 1, in steps of 1/32
// like a layer norm's output (docs/workload-format.md, ONNX quantization).
constexpr int kSequenceInputExponent = -5;
OnnxValue input_value(const std::vector<std::int64_t>& d) {
  const auto n = std::uint32_t(d[0]);
  if (d.size() == 4) return nchw_value("input", -1, n, {std::uint32_t(d[2]), std::uint32_t(d[3]), std::uint32_t(d[1])});
  if (d.size() == 2) return rows_value("input", -1, n, {1, 1, std::uint32_t(d[1])}, d);
  OnnxValue v = rows_value("input", -1, n, {std::uint32_t(d[1]), 1, std::uint32_t(d[2])}, d);
  v.exponent = kSequenceInputExponent;
  return v;
}

}  // namespace

int onnx_input_exponent(std::size_t rank) { return rank == 3 ? kSequenceInputExponent : 0; }

const std::vector<std::string>& supported_onnx_ops() {
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> names{"Constant"};
    for (const auto& [op, handler] : OnnxGraphImporter::handlers()) names.push_back(op);
    for (const auto& op : foldable_onnx_ops()) names.push_back(op);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
  }();
  return ops;
}

OnnxImport import_onnx_graph(const OnnxModel& model, bool functional, const std::map<std::string, int>& calibrated) {
  return OnnxGraphImporter(model, functional, calibrated).run();
}

OnnxGraphImporter::OnnxGraphImporter(const OnnxModel& model, bool functional,
                                     const std::map<std::string, int>& calibrated)
    : model_(model), functional_(functional), calibrated_(calibrated) {
  for (const auto& n : model_.graph().node())
    for (const auto& in : n.input()) ++consumers_[in];
  for (const auto& out : model_.graph().output()) ++consumers_[out.name()];
}

OnnxImport OnnxGraphImporter::run() {
  const auto& in = model_.shapes.at(model_.input);
  const std::string place = fmt::format("graph input '{}'", model_.input);
  if (in.size() < 2 || in.size() > 4 || std::any_of(in.begin(), in.end(), [](std::int64_t d) { return d <= 0 || d > (1 << 24); }))
    throw InputError(model_.file, place, fmt::format("shape {} is not supported: give [N, C, H, W], [N, S, D] or "
                                                     "[N, K] with positive extents", fmt::join(in, "x")));
  batch_ = std::uint32_t(in[0]);
  const OnnxValue input = token_input() ? token_ids_value(in) : input_value(in);
  values_[model_.input] = input;
  names_.insert("input");
  result_.name = model_.graph().name().empty() ? "onnx" : model_.graph().name();
  result_.batch = batch_;
  result_.input = input.map;
  for (const auto& n : model_.graph().node()) {
    if (fused_.count(&n) || (n.output_size() == 1 && model_.constant(n.output(0)))) continue;  // constants
    require_supported_op(model_, n);
    const auto handler = handlers().find(n.op_type());
    if (handler == handlers().end()) {
      refused(n);
      continue;
    }
    (this->*(handler->second))(n);
  }
  drop_split_layers();
  if (biased_layers_ > 0)
    result_.notes.push_back(fmt::format("{} bias Adds follow no conv or MatMul with weights whose output they alone "
                                        "read, so no requantization can add them; timing runs leave them out, "
                                        "functional runs refuse the model",
                                        biased_layers_));
  if (inexact_scales_ > 0)
    result_.notes.push_back(fmt::format("{} scales are not a power of two or leave a layer's range (e.g. attention's "
                                        "1/sqrt(d)); timing runs use the nearest that fits, functional runs refuse "
                                        "the model", inexact_scales_));
  if (ignored_affines_ > 0)
    result_.notes.push_back(fmt::format("{} LayerNormalization scales/biases feed no MatMul with weights to fold "
                                        "into; timing runs leave them out, functional runs refuse the model",
                                        ignored_affines_));
  if (tanh_gelus_ > 0)
    result_.notes.push_back(fmt::format("{} GELUs in the tanh form run as the erf form (they differ by less than "
                                        "5e-4, a fifteenth of the finest int8 step)", tanh_gelus_));
  if (relu6_layers_ > 0)
    result_.notes.push_back(fmt::format("{} Clip(0, 6) (ReLU6) run as ReLU: the int8 requantization clamps at 0 "
                                        "and at the int8 range, not at 6", relu6_layers_));
  return std::move(result_);
}

const OnnxValue& OnnxGraphImporter::activation(const Node& n, int input) const {
  if (!has_input(n, input)) fail(n, fmt::format("input {} is missing", input));
  const auto it = values_.find(n.input(input));
  if (it != values_.end()) {
    if (split_layers_.count(it->second.tensor))
      fail(n, fmt::format("reads '{}' whole, but its layer was split into one layer per part for a Split or Gather "
                          "of its channels; only the parts can be read", n.input(input)));
    if (it->second.channel_order && n.op_type() != "Conv" && n.op_type() != "Slice")
      fail(n, "reads a channel shuffle, which only a Conv (folded into its weights) or a Slice of channels takes");
    return it->second;
  }
  if (model_.constant(n.input(input)))
    fail(n, fmt::format("input {} ('{}') is a constant; only activations are supported there", input, n.input(input)));
  fail(n, fmt::format("input '{}' is not produced by a supported node", n.input(input)));
}

const std::vector<std::int64_t>& OnnxGraphImporter::dims(const Node& n, const std::string& value) const {
  return model_.shape(value, n);
}

std::vector<double> OnnxGraphImporter::constant_values(const Node& n, int input) const {
  std::vector<double> values;
  read_constant(n, input, values);
  // NaN stands for no int8 value, shape, bound or mask (an infinity may: a mask's -inf, a
  // bound), and rounding it to int8 is undefined: refused at the node that reads it.
  if (std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); }))
    fail(n, fmt::format("input '{}' holds NaN, which no value npusim computes with can stand for", n.input(input)));
  return values;
}

std::vector<double> OnnxGraphImporter::weight_values(const Node& n, int input) {
  std::vector<double> values = std::move(recycled_weights_);
  read_constant(n, input, values);
  return values;
}

void OnnxGraphImporter::read_constant(const Node& n, int input, std::vector<double>& values) const {
  const onnx::TensorProto* t = has_input(n, input) ? model_.constant(n.input(input)) : nullptr;
  if (!t) fail(n, fmt::format("input {} must be a constant (an initializer)", input));
  read_tensor_values(*t, model_.file, values);
}

const OnnxGraphImporter::Node* OnnxGraphImporter::sole_consumer(const std::string& value) const {
  const auto count = consumers_.find(value);
  if (count == consumers_.end() || count->second != 1) return nullptr;
  for (const auto& out : model_.graph().output())
    if (out.name() == value) return nullptr;
  const auto r = readers(value);
  return r.empty() ? nullptr : r.front();
}

std::string OnnxGraphImporter::layer_name(const Node& n) {
  std::string base = n.name().empty() ? n.op_type() : n.name();
  // PyTorch names nodes "/module/path/OpType": the op type is in the layer's kind. Ops
  // written in a module's forward (attention's MatMuls, Softmax, GELU's Erf) keep it:
  // the path alone names their module, not them.
  static const std::set<std::string> functional_ops = {"Softmax", "Erf", "ReduceMean"};
  const bool keeps_op = functional_ops.count(n.op_type()) ||
                        (n.op_type() == "MatMul" && n.input_size() > 1 && !model_.constant(n.input(1)));
  const std::string suffix = "/" + n.op_type();
  if (!keeps_op && base.size() > suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0)
    base.erase(base.size() - suffix.size());
  while (!base.empty() && (base[0] == '/' || base[0] == '.' || base[0] == '_')) base.erase(0, 1);
  base = sanitized_layer_name(base);
  std::string name = base;
  for (int i = 2; names_.count(name); ++i) name = fmt::format("{}_{}", base, i);
  names_.insert(name);
  return name;
}

OnnxLayer onnx_layer(LayerKind kind) {
  OnnxLayer l;
  l.layer.kind = kind;
  return l;
}

int OnnxGraphImporter::emit(const Node& n, OnnxLayer layer, const OnnxValue& in, OnnxValue out) {
  const LayerKind kind = layer.layer.kind;
  layer.layer.name = layer_name(n);
  if (layer.layer.inputs.empty()) layer.layer.inputs = {in.tensor};
  out.tensor = layer.layer.name;
  const int index = int(result_.layers.size());
  result_.layers.push_back(std::move(layer));
  std::string output = n.output(0);
  if (kind != LayerKind::Pool && kind != LayerKind::Concat && kind != LayerKind::Upsample) output = fuse_relu(index, output);
  if (in.affine && out.affine != in.affine) unapplied_affine(n);
  out.layer = index;
  out.batch = batch_;
  out.probabilities = kind == LayerKind::Softmax;
  values_[output] = out;
  const bool normalizes = kind == LayerKind::LayerNorm;
  result_.origins[out.tensor] = {output, out.exponent, out.affine != nullptr, normalizes ? n.input(0) : ""};
  return index;
}

// NaN or infinity in a weight or bias (in the initializer, or made by folding a
// BatchNormalization) has no int8 or int32 value: bad input, not a number to round.
void OnnxGraphImporter::require_finite(const Node& n, const std::vector<double>& values, const char* what) const {
  if (!std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); }))
    fail(n, fmt::format("has a {} that is not a finite number (NaN or infinity, in the initializer or after folding "
                        "the BatchNormalization that follows it)", what));
}

void OnnxGraphImporter::emit_weighted(const Node& n, OnnxLayer layer, const OnnxValue& in, OnnxValue out,
                                      std::vector<double> weights, std::vector<double> bias, bool can_fold_bn,
                                      std::uint32_t co, std::uint32_t ci, std::uint32_t kh,
                                      std::uint32_t kw, bool depthwise) {
  const Node* bn = can_fold_bn ? fold_next_batch_norm(n, weights, bias, co) : nullptr;
  Node folded_node = n;
  if (bn) folded_node.set_output(0, bn->output(0));  // the layer writes what the BN wrote
  OnnxValue source = in;
  if (in.affine && kh * kw == 1 && !depthwise) {
    // y = W (scale * x + shift): the scale multiplies W's columns, W * shift joins the bias.
    for (std::uint64_t o = 0; o < co; ++o)
      for (std::uint64_t i = 0; i < ci; ++i) {
        bias[o] += weights[o * ci + i] * in.affine->shift[i];
        weights[o * ci + i] *= in.affine->scale[i];
      }
    source.affine = nullptr;
  }
  require_finite(n, weights, "weight");
  require_finite(n, bias, "bias");
  QuantizedWeights q = quantize_weights(weights);
  recycled_weights_ = std::move(weights);  // the next weighted layer reads into this buffer
  if (!depthwise && kh * kw > 1) q.values = conv_weights_to_nhwc(q.values, co, ci, kh, kw, false);
  if (depthwise) q.values = conv_weights_to_nhwc(q.values, co, 1, kh, kw, true);
  out.exponent = weighted_output_exponent(folded_node.output(0), in.exponent, in.exponent + q.exponent);
  // Σ x·q is in steps of 2^(in + weights); the shift brings it to steps of 2^out.
  const int shift = scale_within(n, out.exponent - in.exponent - q.exponent, 0, kMaxShift,
                                 "the requantization shift (output - input - weight scale exponents)");
  out.exponent = shift + in.exponent + q.exponent;
  layer.shift = shift;
  q.accumulator_exponent = in.exponent + q.exponent;
  add_accumulator_bias(q, bias);
  const int index = emit(folded_node, std::move(layer), source, out);
  result_.weights[result_.layers[std::size_t(index)].layer.name] = std::move(q);
}

bool OnnxGraphImporter::relu_bound(const Node& n) const {
  if (n.op_type() == "Relu") return true;
  if (n.op_type() != "Clip") return false;
  const bool low = has_input(n, 1) && model_.constant(n.input(1)) && constant_values(n, 1) == std::vector<double>{0};
  const bool high = !has_input(n, 2) || (model_.constant(n.input(2)) && constant_values(n, 2) == std::vector<double>{6});
  return low && high;
}

std::string OnnxGraphImporter::fuse_relu(int layer, std::string output) {
  const Node* next = sole_consumer(output);
  if (!next || !relu_bound(*next)) return output;
  result_.layers[std::size_t(layer)].layer.relu = true;
  if (next->op_type() == "Clip") ++relu6_layers_;
  fused_.insert(next);
  return next->output(0);
}

void OnnxGraphImporter::alias(const Node& n, OnnxValue v) {
  values_[n.output(0)] = v;
}

void OnnxGraphImporter::unapplied_affine(const Node& n) {
  if (functional_)
    fail(n, "reads a LayerNormalization output whose scale is not 1 or whose bias is not 0; npusim's layernorm has "
            "neither, so they are folded into the MatMul or Gemm with weights that reads it, and this node is not one");
  ++ignored_affines_;
}

int OnnxGraphImporter::output_exponent(const std::string& value, int input_exponent) const {
  static const std::set<std::string> passes = {"Reshape", "Transpose", "Identity", "Dropout", "Squeeze",
                                               "Unsqueeze", "Flatten", "Relu"};
  std::string v = value;
  for (int hop = 0; hop < 16; ++hop) {
    const Node* next = sole_consumer(v);
    if (!next || next->output_size() < 1) break;
    if (next->op_type() == "Add" && next->input_size() == 2) {
      const std::string& other = next->input(0) == v ? next->input(1) : next->input(0);
      if (model_.constant(other)) {  // a bias: look past it
        v = next->output(0);
        continue;
      }
      const auto it = values_.find(other);
      if (it != values_.end()) return it->second.exponent;
      break;
    }
    if (!passes.count(next->op_type())) break;
    v = next->output(0);
  }
  return input_exponent;
}

int OnnxGraphImporter::weighted_output_exponent(const std::string& value, int input_exponent,
                                                int accumulator) const {
  const auto it = calibrated_.find(value);
  if (it == calibrated_.end()) return output_exponent(value, input_exponent);
  return std::max(it->second, accumulator);
}

int OnnxGraphImporter::scale_within(const Node& n, double exponent, int low, int high, const char* what) {
  const bool whole = exponent == std::floor(exponent);
  if (whole && exponent >= low && exponent <= high) return int(exponent);
  if (functional_)
    fail(n, whole ? fmt::format("{} is {}, outside {} to {} (docs/workload-format.md, ONNX quantization)", what,
                                exponent, low, high)
                  : fmt::format("{} is 2^{:.3f}, not a power of two; npusim's int8 scales are powers of two (scale "
                                "attention by 1/sqrt(d) with d a power of four, or fold the factor into a weight)",
                                what, exponent));
  ++inexact_scales_;
  return std::clamp(int(std::lround(exponent)), low, high);
}

}  // namespace npusim
