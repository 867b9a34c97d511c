#include <algorithm>

#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxGraphImporter.h"
#include "apps/frontend/onnx/OnnxTensor.h"
#include "sim/tensor/WindowGeometry.h"

namespace npusim {

namespace {

using Node = onnx::NodeProto;

// Kernel, strides and pads of a 2-D window op; ONNX pads are [top, left, bottom,
// right], a layer's [top, bottom, left, right].
struct Window {
  std::vector<std::int64_t> kernel, strides, pads, dilations;
};

}  // namespace

const std::map<std::string, OnnxGraphImporter::Handler>& OnnxGraphImporter::handlers() {
  static const std::map<std::string, Handler> table = {
      {"Conv", &OnnxGraphImporter::conv},
      {"Gemm", &OnnxGraphImporter::gemm},
      {"MatMul", &OnnxGraphImporter::matmul},
      {"Add", &OnnxGraphImporter::add},
      {"Relu", &OnnxGraphImporter::relu},
      {"Clip", &OnnxGraphImporter::relu},
      {"MaxPool", &OnnxGraphImporter::max_pool},
      {"AveragePool", &OnnxGraphImporter::average_pool},
      {"GlobalAveragePool", &OnnxGraphImporter::global_pool},
      {"GlobalMaxPool", &OnnxGraphImporter::global_pool},
      {"Flatten", &OnnxGraphImporter::reshape},
      {"Reshape", &OnnxGraphImporter::reshape},
      {"Squeeze", &OnnxGraphImporter::reshape},
      {"Unsqueeze", &OnnxGraphImporter::reshape},
      {"Transpose", &OnnxGraphImporter::transpose},
      {"Identity", &OnnxGraphImporter::identity},
      {"Dropout", &OnnxGraphImporter::identity},
      {"BatchNormalization", &OnnxGraphImporter::batch_norm_alone},
      {"Pad", &OnnxGraphImporter::pad},
      {"Slice", &OnnxGraphImporter::slice},
      {"Softmax", &OnnxGraphImporter::softmax},
      {"LayerNormalization", &OnnxGraphImporter::layer_norm},
      {"Div", &OnnxGraphImporter::divide},
      {"Mul", &OnnxGraphImporter::multiply},
      {"Split", &OnnxGraphImporter::split},
      {"Gather", &OnnxGraphImporter::gather},
      {"ReduceMean", &OnnxGraphImporter::reduce_mean},
      {"Erf", &OnnxGraphImporter::refused},
      {"Concat", &OnnxGraphImporter::concat},
      {"Sigmoid", &OnnxGraphImporter::activation_op},
      {"HardSigmoid", &OnnxGraphImporter::activation_op},
      {"HardSwish", &OnnxGraphImporter::activation_op},
      {"Tanh", &OnnxGraphImporter::activation_op},
      {"Where", &OnnxGraphImporter::where_mask},
      {"Pow", &OnnxGraphImporter::power},
      {"Resize", &OnnxGraphImporter::resize},
  };
  return table;
}

namespace {

// The window attributes every 2-D window op shares; auto_pad other than NOTSET or
// VALID, and 1-D or 3-D windows, are refused by the caller's message.
Window window(const Node& n, std::vector<std::int64_t> kernel, std::string& problem) {
  Window w{kernel, onnx_ints(n, "strides", {1, 1}), onnx_ints(n, "pads", {0, 0, 0, 0}), onnx_ints(n, "dilations", {1, 1})};
  const auto* pad_mode = onnx_attribute(n, "auto_pad");
  if (pad_mode && pad_mode->s() != "NOTSET" && pad_mode->s() != "VALID")
    problem = fmt::format("auto_pad {} is not supported (give explicit pads)", pad_mode->s());
  if (w.kernel.size() != 2 || w.strides.size() != 2 || w.pads.size() != 4 || w.dilations.size() != 2)
    problem = "only 2-D windows are supported";
  return w;
}

OnnxLayer window_layer(const Window& w, LayerKind kind) {
  OnnxLayer l = onnx_layer(kind);
  l.kernel = {w.kernel[0], w.kernel[1]};
  l.strides = {w.strides[0], w.strides[1]};
  l.pads = {w.pads[0], w.pads[2], w.pads[1], w.pads[3]};
  return l;
}

OnnxLayer fc_layer(std::uint32_t co) {
  OnnxLayer l = onnx_layer(LayerKind::Fc);
  l.channels = co;
  return l;
}

}  // namespace

OnnxLayer global_pool_layer(bool max) {
  OnnxLayer l = onnx_layer(LayerKind::Pool);
  l.global = true;
  l.layer.pool_max = max;
  return l;
}

void OnnxGraphImporter::conv(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  if (!is_nchw(in)) fail(n, "the input is not an [N, C, H, W] map in the layout a convolution reads");
  const MapShape* map = &in.map;
  const auto& wd = dims(n, n.input(1));
  std::vector<double> weights = weight_values(n, 1);
  if (in.channel_order) unshuffle_weights(n, in, weights);
  std::string problem;
  const Window w = window(n, {wd.size() == 4 ? wd[2] : 0, wd.size() == 4 ? wd[3] : 0}, problem);
  if (!problem.empty()) fail(n, problem);
  if (w.dilations[0] != w.dilations[1])
    fail(n, fmt::format("dilations {}x{} differ; only the same dilation both ways is supported", w.dilations[0],
                        w.dilations[1]));
  const auto co = std::uint32_t(wd[0]), kh = std::uint32_t(wd[2]), kw = std::uint32_t(wd[3]);
  const std::int64_t group = onnx_int(n, "group", 1);
  const bool depthwise = group > 1 && group == map->c && co == map->c;
  if (group < 1 || wd[1] * group != std::int64_t(map->c))
    fail(n, fmt::format("weights [{}] with group {} take {} input channels, the input has {}", fmt::join(wd, ", "),
                        group, wd[1] * group, map->c));
  if (group != 1 && !depthwise && in.affine)
    fail(n, "a grouped conv cannot fold the scale and bias of the LayerNormalization before it");
  std::vector<double> bias = has_input(n, 2) ? constant_values(n, 2) : std::vector<double>(co, 0.0);
  if (bias.size() != co) fail(n, fmt::format("the bias has {} values for {} output channels", bias.size(), co));
  OnnxLayer layer = window_layer(w, LayerKind::Conv);
  fold_pad(n, layer);
  layer.channels = co;
  layer.dilation = w.dilations[0];
  layer.groups = group;  // depthwise, or a grouped conv (ResNeXt) the matrix unit runs group by group
  const auto& od = dims(n, n.output(0));
  const OnnxValue out = nchw_value("", -1, batch_, {std::uint32_t(od[2]), std::uint32_t(od[3]), co});
  emit_weighted(n, std::move(layer), in, out, std::move(weights), std::move(bias), true, co,
                depthwise ? 1 : std::uint32_t(wd[1]), kh, kw, depthwise);
}

void OnnxGraphImporter::gemm(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  const auto& ad = dims(n, n.input(0));
  if (onnx_int(n, "transA", 0) != 0) fail(n, "transA = 1 is not supported");
  for (const char* scale : {"alpha", "beta"})
    if (const auto* a = onnx_attribute(n, scale); a && a->f() != 1.0f)
      fail(n, fmt::format("{} = {} is not supported (only 1)", scale, a->f()));
  const bool flat = flattened_.count(n.input(0)) > 0;  // an NCHW map, flattened (flatten_for_gemm)
  if (!flat && (!is_rows(in) || ad.size() != 2))
    fail(n, "input A is not a matrix [N, K] laid out with its last axis as channels");
  const auto& bd = dims(n, n.input(1));
  const bool trans_b = onnx_int(n, "transB", 0) != 0;
  if (bd.size() != 2) fail(n, "the constant operand B must be 2-D");
  const auto k = std::uint32_t(trans_b ? bd[1] : bd[0]), co = std::uint32_t(trans_b ? bd[0] : bd[1]);
  if (k != (flat ? in.map.elements() : in.map.c))
    fail(n, fmt::format("B takes {} input features, A has {}", k, ad.back()));
  std::vector<double> b = constant_values(n, 1), weights(b.size());
  for (std::uint64_t o = 0; o < co; ++o)
    for (std::uint64_t i = 0; i < k; ++i) weights[o * k + i] = trans_b ? b[o * k + i] : b[i * co + o];
  std::vector<double> bias(co, 0.0);
  if (has_input(n, 2)) {
    const std::vector<double> c = constant_values(n, 2);
    if (c.size() != co && c.size() != 1) fail(n, fmt::format("bias C must have 1 or {} values", co));
    for (std::uint64_t o = 0; o < co; ++o) bias[o] = c[c.size() == 1 ? 0 : o];
  }
  if (flat) return flattened_gemm(n, std::move(weights), std::move(bias), co);
  const OnnxValue out = rows_value("", -1, batch_, {in.map.h, in.map.w, co}, dims(n, n.output(0)));
  emit_weighted(n, fc_layer(co), in, out, std::move(weights), std::move(bias), false, co, k, 1, 1, false);
}

void OnnxGraphImporter::matmul(const Node& n) {
  if (!model_.constant(n.input(1))) return attention_matmul(n);
  const OnnxValue& in = activation(n, 0);
  const bool flat = flattened_.count(n.input(0)) > 0;  // an NCHW map, flattened (flatten_for_gemm)
  if (!flat && !is_rows(in))
    fail(n, "input A is not laid out with its last axis as channels and the other axes in storage order (a MatMul "
            "with weights runs over every position of a [N, ..., K] matrix)");
  const auto& bd = dims(n, n.input(1));
  if (bd.size() != 2) fail(n, "the constant operand B must be 2-D [K, N]");
  const auto k = std::uint32_t(bd[0]), co = std::uint32_t(bd[1]);
  if (k != (flat ? in.map.elements() : in.map.c))
    fail(n, fmt::format("B takes {} input features, A has {}", k, dims(n, n.input(0)).back()));
  const std::vector<double> b = constant_values(n, 1);
  std::vector<double> weights(b.size());
  for (std::uint64_t o = 0; o < co; ++o)
    for (std::uint64_t i = 0; i < k; ++i) weights[o * k + i] = b[i * co + o];
  if (flat) return flattened_gemm(n, std::move(weights), std::vector<double>(co, 0.0), co);
  const OnnxValue out = rows_value("", -1, batch_, {in.map.h, in.map.w, co}, dims(n, n.output(0)));
  emit_weighted(n, fc_layer(co), in, out, std::move(weights), std::vector<double>(co, 0.0), false, co, k, 1, 1,
                false);
}

void OnnxGraphImporter::add(const Node& n) {
  for (int i = 0; i < 2; ++i)
    if (has_input(n, i) && model_.constant(n.input(i))) return bias_add(n, i);
  const OnnxValue &a = activation(n, 0), &b = activation(n, 1);
  if (!same_view(a, b) || !is_whole(a))
    fail(n, "the two inputs must have the same shape and layout (no broadcasting)");
  scale_within(n, a.exponent - b.exponent, 0, 0, "the difference of the two inputs' scale exponents");
  OnnxLayer sum = onnx_layer(LayerKind::Add);
  sum.layer.inputs = {a.tensor, b.tensor};
  emit(n, std::move(sum), a, a);
}

// Maps ([N, C, H, W], axis 1) or matrices ([N, ..., C], the last axis) joined along
// their channels, all of the same positions and scale.
void OnnxGraphImporter::concat(const Node& n) {
  if (token_concat(n)) return;
  for (int i = 0; i < n.input_size(); ++i)
    if (has_input(n, i) && model_.constant(n.input(i)))
      fail(n, fmt::format("input {} ('{}') is a constant after an activation; constants are taken only as rows "
                          "before [N, S, C] tokens (a class token)", i, n.input(i)));
  const OnnxValue& first = activation(n, 0);
  const auto rank = std::int64_t(first.dims.size());
  std::int64_t axis = onnx_int(n, "axis", 0);
  if (axis < 0) axis += rank;
  const bool maps = is_nchw(first) && axis == 1, matrices = !maps && is_rows(first) && axis == rank - 1;
  if (!maps && !matrices)
    fail(n, fmt::format("a Concat along axis {} of [{}] is not supported: the concat layer joins channels only (axis 1 "
                        "of [N, C, H, W] maps, the last axis of [N, ..., C] matrices), not positions (only constant "
                        "rows, a class token, go before tokens)",
                        axis, fmt::join(dims(n, n.input(0)), ", ")));
  if (n.input_size() == 1) return alias(n, first);
  OnnxLayer joined = onnx_layer(LayerKind::Concat);
  std::uint32_t channels = 0;
  bool affine = false;
  for (int i = 0; i < n.input_size(); ++i) {
    const OnnxValue& v = activation(n, i);
    const bool alike = maps ? is_nchw(v) : is_rows(v) && std::equal(v.dims.begin(), v.dims.end() - 1,
                                                                    first.dims.begin(), first.dims.end() - 1);
    if (!alike || v.map.h != first.map.h || v.map.w != first.map.w || v.batch != first.batch)
      fail(n, fmt::format("input {} ('{}') is not {} of the same positions as input 0", i, n.input(i),
                          maps ? "an [N, C, H, W] map" : "a [N, ..., C] matrix"));
    scale_within(n, v.exponent - first.exponent, 0, 0, "the difference of the inputs' scale exponents");
    affine = affine || v.affine;
    joined.layer.inputs.push_back(v.tensor);
    channels += v.map.c;
  }
  if (affine) unapplied_affine(n);
  OnnxValue in = first, out = maps ? nchw_value("", -1, batch_, {first.map.h, first.map.w, channels})
                                   : rows_value("", -1, batch_, {first.map.h, first.map.w, channels},
                                                dims(n, n.output(0)));
  in.affine = nullptr;  // reported above, for every input
  out.exponent = first.exponent;
  emit(n, std::move(joined), in, out);
}

void OnnxGraphImporter::relu(const Node& n) {
  if (!relu_bound(n)) fail(n, "only Clip(min 0, max 6 or none) is supported, as a ReLU");
  if (n.op_type() == "Clip") ++relu6_layers_;
  const OnnxValue& in = activation(n, 0);
  if (!is_whole(in)) fail(n, "the input is a part of a tensor (after Split or Gather); only whole tensors are supported");
  emit(n, onnx_layer(LayerKind::Relu), in, in);
}

void OnnxGraphImporter::max_pool(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  if (!is_nchw(in)) fail(n, "the input is not an [N, C, H, W] map");
  std::string problem;
  const Window w = window(n, onnx_ints(n, "kernel_shape", {}), problem);
  if (!problem.empty()) fail(n, problem);
  if (w.dilations != std::vector<std::int64_t>{1, 1}) fail(n, "dilated pooling is not supported");
  if (onnx_int(n, "storage_order", 0) != 0) fail(n, "storage_order 1 is not supported");
  if (n.output_size() > 1 && !n.output(1).empty()) fail(n, "the Indices output is not supported");
  const auto& od = dims(n, n.output(0));
  OnnxLayer layer = window_layer(w, LayerKind::Pool);
  layer.layer.pool_max = n.op_type() == "MaxPool";
  // A folded Pad's zeros are positions of the window: they count in the average.
  const bool counts_padding = fold_pad(n, layer) || onnx_int(n, "count_include_pad", 0) != 0;
  const bool zeros_counted =
      counts_padding && std::any_of(layer.pads.begin(), layer.pads.end(), [](std::int64_t p) { return p != 0; });
  ceil_mode_padding(n, layer, in.map, od, zeros_counted && !layer.layer.pool_max);
  if (zeros_counted && !layer.layer.pool_max) return padded_average(n, std::move(layer), in);
  OnnxValue out = nchw_value("", -1, batch_, {std::uint32_t(od[2]), std::uint32_t(od[3]), in.map.c});
  out.exponent = in.exponent;
  emit(n, std::move(layer), in, out);
}

void OnnxGraphImporter::average_pool(const Node& n) { max_pool(n); }

void OnnxGraphImporter::global_pool(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  if (!is_nchw(in)) fail(n, "the input is not an [N, C, H, W] map");
  OnnxValue out = nchw_value("", -1, batch_, {1, 1, in.map.c});
  out.exponent = in.exponent;
  out.affine = in.affine;  // a per-channel affine commutes with averaging
  emit(n, global_pool_layer(n.op_type() == "GlobalMaxPool"), in, out);
}

void OnnxGraphImporter::reshape(const Node& n) {
  const auto v = reshaped(activation(n, 0), dims(n, n.output(0)));
  if (!v && flatten_for_gemm(n)) return;
  if (!v && channel_shuffle(n)) return;
  if (!v) fail(n, fmt::format("{} to {} would move data (a reshape is layout-only when the axes it merges lie "
                              "one after the other in memory)",
                              fmt::join(dims(n, n.input(0)), "x"), fmt::join(dims(n, n.output(0)), "x")));
  alias(n, *v);
}

void OnnxGraphImporter::transpose(const Node& n) {
  const auto& from = dims(n, n.input(0));
  std::vector<std::int64_t> reverse;
  for (std::size_t i = from.size(); i-- > 0;) reverse.push_back(std::int64_t(i));
  const auto perm = onnx_ints(n, "perm", reverse);
  std::vector<std::int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (sorted.size() != from.size() || sorted[i] != std::int64_t(i))
      fail(n, fmt::format("perm [{}] is not a permutation of the {} axes", fmt::join(perm, ", "), from.size()));
  alias(n, transposed(activation(n, 0), perm));
}

void OnnxGraphImporter::identity(const Node& n) { alias(n, activation(n, 0)); }

}  // namespace npusim
