// The importer's transformer ops: MatMul of two activations (attention), Softmax,
// LayerNormalization, the GELU pattern, scalings by constants, Split/Gather of a
// projection's output, token means and biases (docs/workload-format.md, ONNX).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxConstantFolding.h"
#include "apps/frontend/onnx/OnnxGraphImporter.h"
#include "apps/frontend/onnx/OnnxTensor.h"

namespace npusim {

namespace {

using Node = onnx::NodeProto;

constexpr int kSoftmaxOutExponent = -7;    // probabilities in steps of 1/128
constexpr int kLayerNormOutExponent = -5;  // normalized values in steps of 1/32

std::size_t axis_of(const Node& n, std::int64_t rank, std::int64_t fallback) {
  std::int64_t a = onnx_int(n, "axis", fallback);
  return std::size_t(a < 0 ? a + rank : a);
}

}  // namespace

void OnnxGraphImporter::attention_matmul(const Node& n) {
  const OnnxValue &a = activation(n, 0), &b = activation(n, 1);
  const auto pa = matmul_operand(a), pb = matmul_operand(b);
  const auto &da = dims(n, n.input(0)), &db = dims(n, n.input(1));
  if (!pa || pa->transposed)
    fail(n, "input A must be [..., rows, k] with its rows the positions of a tensor and k a segment of its channels "
            "(one attention head's), as a projection's output reshaped to [N, heads, tokens, head size] is");
  if (!pb)
    fail(n, "input B must be [..., k, n] or its transpose with one axis the positions of a tensor and the other a "
            "segment of its channels (one head's keys or values)");
  if (da.size() != db.size() || !std::equal(da.begin(), da.end() - 2, db.begin()) || pa->heads != pb->heads ||
      pa->heads_axis != pb->heads_axis || pa->batch_axis != pb->batch_axis)
    fail(n, fmt::format("A [{}] and B [{}] must share their leading (batch, head) axes, head for head (no "
                        "broadcasting)", fmt::join(da, ", "), fmt::join(db, ", ")));
  if (a.affine || b.affine) unapplied_affine(n);
  // A sum of k products grows like sqrt(k) (one bit per factor 4); a row of
  // probabilities only averages B's rows.
  const int growth = int(std::ceil(std::log2(double(da.back())) / 2));
  const int exponent = a.probabilities ? b.exponent : std::max(a.exponent, b.exponent) + growth;
  const int shift = scale_within(n, exponent - a.exponent - b.exponent, 0, kMaxShift,
                                 "the requantization shift (output - A - B scale exponents)");
  const std::int64_t cols = dims(n, n.output(0)).back(), heads = pa->heads;
  OnnxValue out = rows_value("", -1, batch_, {a.map.h, a.map.w, std::uint32_t(heads * cols)}, dims(n, n.output(0)));
  const std::size_t r = out.dims.size();
  for (std::size_t i = 0; i + 2 < r; ++i)
    out.strides[i] = int(i) == pa->heads_axis ? cols : int(i) == pa->batch_axis ? saturating_product({out.positions(), heads, cols}) : 0;
  out.strides[r - 2] = out.dims[r - 2] == 1 ? 0 : heads * cols;
  out.strides[r - 1] = cols == 1 ? 0 : 1;
  out.exponent = a.exponent + b.exponent + shift;
  OnnxLayer product = onnx_layer(LayerKind::Matmul);
  product.layer.inputs = {a.tensor, b.tensor};
  product.heads = heads;
  product.layer.transpose_b = pb->transposed;
  product.shift = shift;
  emit(n, std::move(product), a, out);
}

void OnnxGraphImporter::softmax(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  const auto rank = std::int64_t(in.dims.size());
  if (axis_of(n, rank, model_.opset >= 13 ? -1 : 1) != std::size_t(rank - 1))
    fail(n, "only a softmax over the last axis is supported");
  const std::int64_t segment = in.dims.back(), c = in.map.c;
  bool aligned = is_whole(in) && c % segment == 0 && (segment == 1 || in.strides.back() == 1);
  for (std::size_t i = 0; i + 1 < in.dims.size(); ++i) aligned = aligned && (in.dims[i] == 1 || in.strides[i] % segment == 0);
  if (!aligned)
    fail(n, "the last axis must be a contiguous segment of the channels (one head's scores per token), every token "
            "and head once");
  const int frac_bits = scale_within(n, -in.exponent, 0, 7, "the input's fraction bits (minus its scale exponent)");
  OnnxValue out = in;
  out.exponent = kSoftmaxOutExponent;
  out.probabilities = true;
  OnnxLayer layer = onnx_layer(LayerKind::Softmax);
  layer.heads = c / segment;
  layer.frac_bits = frac_bits;
  emit(n, std::move(layer), in, out);
}

void OnnxGraphImporter::layer_norm(const Node& n) {
  const auto rank = std::int64_t(activation(n, 0).dims.size());
  if (axis_of(n, rank, -1) != std::size_t(rank - 1)) fail(n, "only a normalization over the last axis is supported");
  for (int i = 1; i < n.output_size(); ++i)
    if (!n.output(i).empty() && consumers_.count(n.output(i)))
      fail(n, "its Mean and InvStdDev outputs are not supported");
  emit_layer_norm(n, n.output(0), constant_values(n, 1), has_input(n, 2) ? constant_values(n, 2) : std::vector<double>{});
}

void OnnxGraphImporter::emit_layer_norm(const Node& first, const std::string& output, std::vector<double> scale,
                                        std::vector<double> shift) {
  const OnnxValue& in = activation(first, 0);
  if (!is_rows(in))
    fail(first, "only a normalization over the last axis, the channels of a [N, ..., C] matrix, is supported");
  if (scale.empty()) scale.assign(in.map.c, 1.0);
  if (shift.empty()) shift.assign(in.map.c, 0.0);
  if (scale.size() != in.map.c || shift.size() != in.map.c)
    fail(first, fmt::format("the scale and bias need {} values (the channels)", in.map.c));
  OnnxValue out = in;
  out.exponent = kLayerNormOutExponent;
  out.affine = nullptr;
  if (std::any_of(scale.begin(), scale.end(), [](double s) { return s != 1; }) ||
      std::any_of(shift.begin(), shift.end(), [](double b) { return b != 0; }))
    out.affine = std::make_shared<ChannelAffine>(ChannelAffine{scale, shift});
  Node layer = first;
  layer.set_output(0, output);
  emit(layer, onnx_layer(LayerKind::LayerNorm), in, out);
}

// One gelu layer for a recognised GELU chain `gelu` (its first node, carrying the chain's
// output) whose first op is n: the vector unit's lookup takes 0 to 7 fraction bits.
void OnnxGraphImporter::emit_gelu(const Node& n, const Node& gelu, const OnnxValue& in) {
  const int frac_bits = scale_within(n, -in.exponent, 0, 7, "the input's fraction bits (minus its scale exponent)");
  OnnxValue out = in;
  out.affine = nullptr;
  OnnxLayer layer = onnx_layer(LayerKind::Gelu);
  layer.frac_bits = frac_bits;
  emit(gelu, std::move(layer), in, out);
}

void OnnxGraphImporter::divide(const Node& n) {
  const onnx::TensorProto* divisor = has_input(n, 1) ? model_.constant(n.input(1)) : nullptr;
  const std::vector<double> c = divisor ? constant_values(n, 1) : std::vector<double>{};
  if (c.size() != 1) fail(n, "only a division by one constant number is supported");
  if (const Node* half = gelu_pattern(n)) {
    const OnnxValue& in = activation(n, 0);
    if (!is_whole(in)) fail(n, "GELU of a part of a tensor (after Split or Gather) is not supported");
    const Node* erf = sole_consumer(n.output(0));
    for (const Node* p = erf; p != half; p = sole_consumer(p->output(0))) fused_.insert(p);
    fused_.insert(half);
    Node gelu = *erf;
    gelu.set_output(0, half->output(0));
    return emit_gelu(n, gelu, in);
  }
  if (!(c[0] > 0)) fail(n, "only a division by a positive number is supported");
  OnnxValue v = activation(n, 0);
  v.exponent -= scale_within(n, std::log2(c[0]), -64, 64, "the divisor");
  v.probabilities = false;
  alias(n, v);
}

void OnnxGraphImporter::multiply(const Node& n) {
  for (int i = 0; i < 2; ++i) {
    if (!has_input(n, i) || !model_.constant(n.input(i))) continue;
    const std::vector<double> c = constant_values(n, i);
    if (c.size() > 1) return layer_scale(n, i);
    if (c.size() != 1 || !(c[0] > 0)) fail(n, "only a multiplication by one positive constant number is supported");
    OnnxValue v = activation(n, 1 - i);
    v.exponent += scale_within(n, std::log2(c[0]), -64, 64, "the factor");
    v.probabilities = false;
    alias(n, v);
    return;
  }
  multiply_activations(n);
}

void OnnxGraphImporter::split(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  const auto rank = std::int64_t(in.dims.size());
  const std::size_t axis = axis_of(n, rank, 0);
  const auto parts = std::int64_t(n.output_size());
  if (axis >= in.dims.size() || in.dims[axis] % parts != 0) fail(n, "the axis does not split into equal parts");
  std::vector<std::int64_t> sizes = onnx_ints(n, "split", {});
  if (has_input(n, 1)) {
    const onnx::TensorProto* t = model_.constant(n.input(1));
    if (!t) fail(n, "the split sizes must be a constant");
    sizes = tensor_integers(*t, model_.file);
  }
  for (auto s : sizes)
    if (s != in.dims[axis] / parts) fail(n, "only a split into equal parts is supported");
  for (int i = 0; i < n.output_size(); ++i) {
    const OnnxValue part = channel_part(n, part_of(in, axis, parts, i), i);
    values_[n.output(i)] = part;
  }
}

void OnnxGraphImporter::gather(const Node& n) {
  if (has_input(n, 0) && model_.constant(n.input(0))) return embedding(n);  // a table's rows
  if (first_token(n)) return;
  const OnnxValue& in = activation(n, 0);
  const onnx::TensorProto* index = has_input(n, 1) ? model_.constant(n.input(1)) : nullptr;
  if (!index || index->dims_size() != 0) fail(n, "only a Gather of one constant index (a scalar) is supported");
  const std::size_t axis = axis_of(n, std::int64_t(in.dims.size()), 0);
  std::int64_t i = tensor_integers(*index, model_.file).at(0);
  if (axis >= in.dims.size()) fail(n, "the axis is outside the input's rank");
  if (i < 0) i += in.dims[axis];
  if (i < 0 || i >= in.dims[axis]) fail(n, fmt::format("index {} is outside the axis' {} entries", i, in.dims[axis]));
  const OnnxValue part = channel_part(n, part_of(in, axis, in.dims[axis], i), int(i));
  const auto v = reshaped(part, dims(n, n.output(0)));
  if (!v) fail(n, "the gathered part cannot be viewed in its output shape");
  alias(n, *v);
}

OnnxValue OnnxGraphImporter::channel_part(const Node& n, const OnnxValue& part, int index) {
  const auto block = channel_block(part);
  std::vector<OnnxLayer>& layers = result_.layers;
  if (!block || part.layer < 0 || !result_.weights.count(part.tensor))
    fail(n, "only a Split, Slice or Gather that cuts a MatMul's or Conv's output channels into blocks (e.g. a fused q, k, v "
            "projection) is supported: that layer becomes one layer per block");
  for (const auto& l : layers)
    for (const auto& r : l.layer.inputs)
      if (r == part.tensor)
        fail(n, fmt::format("'{}' is split into blocks here but layer '{}' also reads it whole", part.tensor,
                            l.layer.name));
  OnnxLayer layer = layers[std::size_t(part.layer)];
  const QuantizedWeights& w = result_.weights.at(part.tensor);
  const std::size_t per_channel = w.values.size() / std::uint32_t(layer.channels);
  std::string name = fmt::format("{}_{}", part.tensor, index);
  for (int k = 2; names_.count(name); ++k) name = fmt::format("{}_{}_{}", part.tensor, index, k);
  names_.insert(name);
  layer.layer.name = name;
  layer.channels = block->count;
  QuantizedWeights q{{w.values.begin() + std::ptrdiff_t(block->first * per_channel),
                      w.values.begin() + std::ptrdiff_t((block->first + block->count) * per_channel)},
                     w.exponent};
  q.accumulator_exponent = w.accumulator_exponent;
  if (!w.bias.empty())  // each block keeps its channels' biases
    q.bias.assign(w.bias.begin() + std::ptrdiff_t(block->first), w.bias.begin() + std::ptrdiff_t(block->first + block->count));
  result_.weights[name] = std::move(q);
  split_layers_[part.tensor].push_back(int(layers.size()));
  layers.push_back(std::move(layer));
  OnnxValue out = part;
  out.tensor = name;
  out.layer = int(layers.size()) - 1;
  out.map.c = block->count;
  out.strides = block->strides;
  out.offset = 0;
  result_.origins[name] = {n.op_type() == "Split" ? n.output(index) : n.output(0), out.exponent, false, ""};
  return out;
}

void OnnxGraphImporter::drop_split_layers() {
  if (split_layers_.empty()) return;
  std::vector<OnnxLayer> kept;
  for (auto& l : result_.layers) {
    const std::string& name = l.layer.name;
    if (split_layers_.count(name)) {
      result_.weights.erase(name);
      result_.origins.erase(name);
      continue;
    }
    kept.push_back(std::move(l));
  }
  result_.layers = std::move(kept);
}

void OnnxGraphImporter::reduce_mean(const Node& n) {
  if (const auto chain = layer_norm_pattern(n)) {
    for (const Node* p : chain->nodes) fused_.insert(p);
    Node norm = n;  // named as PyTorch names a LayerNormalization node: its module's path
    const std::string suffix = "/ReduceMean";
    if (norm.name().size() > suffix.size() && norm.name().compare(norm.name().size() - suffix.size(), suffix.size(), suffix) == 0)
      norm.set_name(norm.name().substr(0, norm.name().size() - suffix.size()) + "/LayerNormalization");
    norm.set_op_type("LayerNormalization");
    emit_layer_norm(norm, chain->last->output(0), chain->scale, chain->shift);
    return;
  }
  const OnnxValue& in = activation(n, 0);
  std::vector<std::int64_t> axes = onnx_ints(n, "axes", {});
  for (auto& a : axes) a = a < 0 ? a + std::int64_t(in.dims.size()) : a;
  std::sort(axes.begin(), axes.end());
  std::vector<std::int64_t> tokens;  // the axes holding positions
  for (std::size_t i = 1; i + 1 < in.dims.size(); ++i) tokens.push_back(std::int64_t(i));
  const bool over_tokens = is_rows(in) && axes == tokens;
  const bool over_map = is_nchw(in) && axes == std::vector<std::int64_t>{2, 3};
  if (!over_tokens && !over_map)
    fail(n, "only a mean over all positions is supported: the token axes of [N, tokens, C] or H and W of "
            "[N, C, H, W] (a global average pool)");
  OnnxValue out = rows_value("", -1, batch_, {1, 1, in.map.c}, dims(n, n.output(0)));
  if (over_map && onnx_int(n, "keepdims", 1) != 0) out = nchw_value("", -1, batch_, {1, 1, in.map.c});
  out.exponent = in.exponent;
  out.affine = in.affine;  // averaging commutes with a per-channel affine
  emit(n, global_pool_layer(false), in, out);
}

// The weights of the layer that wrote input `input` of `n`, when `n` is that value's only
// reader (so a bias can join the layer's requantization); else null.
QuantizedWeights* OnnxGraphImporter::weighted_producer(const Node& n, int input) {
  const OnnxValue& in = activation(n, input);
  if (in.layer < 0 || sole_consumer(n.input(input)) != &n) return nullptr;
  const std::string& name = result_.layers[std::size_t(in.layer)].layer.name;
  const auto origin = result_.origins.find(name);
  if (origin == result_.origins.end() || origin->second.value != n.input(input)) return nullptr;
  const auto weights = result_.weights.find(name);
  return weights == result_.weights.end() ? nullptr : &weights->second;
}

void OnnxGraphImporter::bias_add(const Node& n, int constant_input) {
  const OnnxValue& in = activation(n, 1 - constant_input);
  const std::vector<double> bias = constant_values(n, constant_input);
  const auto& bd = dims(n, n.input(constant_input));
  const bool per_channel = bias.size() == in.map.c &&
                           ((is_rows(in) && bd.size() <= 1) ||
                            (is_nchw(in) && std::count(bd.begin(), bd.end(), 1) + 1 == std::ptrdiff_t(bd.size()) &&
                             bd.size() >= 3 && bd[bd.size() - 3] == in.map.c));
  if (!per_channel || !folds_bias(in, bias)) return add_constant(n, constant_input);
  QuantizedWeights* producer = weighted_producer(n, 1 - constant_input);
  if (producer) {
    require_finite(n, bias, "bias");
    add_accumulator_bias(*producer, bias);  // MatMul + Add (a Linear): the MatMul's requantization adds it
    result_.origins[in.tensor].value = n.output(0);  // the layer's tensor now holds the Add's value
  } else if (std::any_of(bias.begin(), bias.end(), [](double b) { return b != 0; })) {
    if (functional_)
      fail(n, "adds a non-zero bias to a value no conv or MatMul with weights wrote alone; no requantization can add "
              "it, so functional mode cannot compute it (timing runs leave it out)");
    ++biased_layers_;
  }
  alias(n, in);
}

void OnnxGraphImporter::refused(const Node& n) {
  const std::string& op = n.op_type();
  if (op == "Erf") fail(n, "Erf is supported only inside the GELU pattern x * (1 + erf(x / sqrt(2))) * 0.5");
  std::string activation_input;
  for (const auto& in : n.input())
    if (!in.empty() && !model_.constant(in)) activation_input = in;
  fail(n, fmt::format("{} is supported only on values known at import time (shape arithmetic on constants); its "
                      "input '{}' is an activation",
                      op, activation_input));
}

}  // namespace npusim
