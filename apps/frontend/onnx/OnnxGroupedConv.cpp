// A grouped convolution, 1 < group < channels (ResNeXt, RegNet), as one conv per group
// on the matrix unit: the layer that writes its input becomes one layer per group's
// block of channels (as for a Split of a projection), each group's conv reads its
// block, and a concat (DMA) joins the groups' outputs; the layers that hold a block of
// channels name no ONNX value (only the concat holds the conv's output) (docs/workload-format.md,
// "Structure: padding, pooling, reshapes, grouped convs").
#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxGraphImporter.h"

namespace npusim {

namespace {

using Node = onnx::NodeProto;

// Group `g`'s node: named after the conv, writing a value of its own.
Node group_node(const Node& n, std::int64_t g) {
  Node part = n;
  part.set_name(fmt::format("{}/group{}", n.name().empty() ? "Conv" : n.name(), g));
  part.set_output(0, fmt::format("{}#group{}", n.output(0), g));
  return part;
}

std::vector<double> rows_of(const std::vector<double>& v, std::size_t first, std::size_t count, std::size_t per_row) {
  return {v.begin() + std::ptrdiff_t(first * per_row), v.begin() + std::ptrdiff_t((first + count) * per_row)};
}

// One group's conv: the node's window (weights [co, ci/group, kh, kw]) with `cog` outputs.
OnnxLayer group_layer(const Node& n, const std::vector<std::int64_t>& wd, std::uint32_t cog, bool relu) {
  OnnxLayer layer = onnx_layer(LayerKind::Conv);
  const auto strides = onnx_ints(n, "strides", {1, 1}), p = onnx_ints(n, "pads", {0, 0, 0, 0});
  layer.kernel = {wd[2], wd[3]};
  layer.strides = {strides[0], strides[1]};
  layer.pads = {p[0], p[2], p[1], p[3]};
  layer.dilation = onnx_ints(n, "dilations", {1, 1})[0];
  layer.channels = cog;
  layer.layer.relu = relu;
  return layer;
}

}  // namespace

void OnnxGraphImporter::grouped_conv(const Node& n, std::int64_t groups) {
  const OnnxValue in = activation(n, 0);
  if (in.layer < 0 || !result_.weights.count(in.tensor) || result_.layers[std::size_t(in.layer)].groups > 1)
    fail(n, fmt::format("group {}: each group's input channels must come from a Conv (not depthwise) or Gemm whose "
                        "output only this conv reads (that layer is cut into one layer per group); '{}' is not one",
                        groups, n.input(0)));
  const auto& wd = dims(n, n.input(1));
  const auto co = std::uint32_t(wd[0]), cig = std::uint32_t(wd[1]), cog = co / std::uint32_t(groups);
  if (co % groups != 0) fail(n, fmt::format("{} output channels do not divide into {} groups", co, groups));
  std::vector<double> weights = constant_values(n, 1);
  std::vector<double> bias = has_input(n, 2) ? constant_values(n, 2) : std::vector<double>(co, 0.0);
  if (bias.size() != co) fail(n, fmt::format("the bias has {} values for {} output channels", bias.size(), co));
  Node whole = n;  // writes what the BatchNormalization and ReLU after the conv wrote
  if (const Node* bn = fold_next_batch_norm(n, weights, bias, co)) whole.set_output(0, bn->output(0));
  const Node* relu = sole_consumer(whole.output(0));
  const bool fused_relu = relu && relu_bound(*relu);
  if (fused_relu) {  // into every group's requantization
    fused_.insert(relu);
    if (relu->op_type() == "Clip") ++relu6_layers_;
    whole.set_output(0, relu->output(0));
  }
  const auto& od = dims(n, n.output(0));
  OnnxLayer joined = onnx_layer(LayerKind::Concat);
  OnnxValue out = nchw_value("", -1, batch_, {std::uint32_t(od[2]), std::uint32_t(od[3]), co});
  const std::size_t per_co = std::size_t(cig) * std::size_t(wd[2] * wd[3]);
  for (std::int64_t g = 0; g < groups; ++g) {
    const OnnxValue part = channel_part(n, part_of(in, 1, groups, g), int(g));
    result_.origins.erase(part.tensor);  // a block of channels: no ONNX value holds it alone
    OnnxLayer layer = group_layer(n, wd, cog, fused_relu);
    fold_pad(n, layer);
    emit_weighted(group_node(n, g), std::move(layer), part, nchw_value("", -1, batch_, {out.map.h, out.map.w, cog}),
                  rows_of(weights, g * cog, cog, per_co), rows_of(bias, g * cog, cog, 1), false, cog, cig,
                  std::uint32_t(wd[2]), std::uint32_t(wd[3]), false);
    const OnnxValue& written = values_.at(group_node(n, g).output(0));
    if (g == 0) out.exponent = written.exponent;
    scale_within(n, written.exponent - out.exponent, 0, 0, "the difference of the groups' scale exponents");
    joined.layer.inputs.push_back(written.tensor);
    result_.origins.erase(written.tensor);
  }
  emit(whole, std::move(joined), values_.at(group_node(n, 0).output(0)), out);
}

}  // namespace npusim
