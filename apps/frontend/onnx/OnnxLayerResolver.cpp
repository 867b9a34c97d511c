#include "apps/frontend/onnx/OnnxLayerResolver.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/frontend/workload/LayerChecks.h"

namespace npusim {

namespace {

// ONNX names are bytes (proto2 strings): ones that are not UTF-8 get U+FFFD, as every
// name a report writes must be text.
std::string utf8_name(const std::string& bytes) {
  const nlohmann::json quoted = nlohmann::json::parse(
      nlohmann::json(bytes).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return quoted.get<std::string>();
}

void resolve_conv(const OnnxLayer& o, Layer& l, const Place& place) {
  l.kh = checked_extent(o.kernel[0], "kh", place);
  l.kw = checked_extent(o.kernel[1], "kw", place);
  l.sh = checked_extent(o.strides[0], "sh", place);
  l.sw = checked_extent(o.strides[1], "sw", place);
  l.dilation = checked_extent(o.dilation, "dilation", place);
  check_dilation(l, place);
  const std::uint32_t groups = checked_extent(o.groups, "groups", place);
  const std::uint32_t co = checked_extent(o.channels, "co", place);
  apply_groups(l, groups, co, place);
  const auto kernel = dilated_kernel(l, place);
  l.pad = checked_padding(o.pads, place);
  finish_conv(l, kernel, co, place);
}

void resolve_pool(const OnnxLayer& o, Layer& l, const Place& place) {
  if (o.global) {
    l.kh = l.in.h;
    l.kw = l.in.w;
  } else {
    l.kh = checked_extent(o.kernel[0], "kh", place);
    l.kw = checked_extent(o.kernel[1], "kw", place);
  }
  l.sh = checked_extent(o.strides[0], "sh", place);
  l.sw = checked_extent(o.strides[1], "sw", place);
  l.pad = checked_padding(o.pads, place);
  finish_pool(l, place);
}

void resolve_matmul(const OnnxLayer& o, Layer& l, const Place& place) {
  l.heads = check_heads(checked_extent(o.heads, "heads", place), l.in, "inputs[0]", place);
  check_heads(l.heads, l.in_b, "inputs[1]", place);
  check_kv_cache(l, place);
  check_matmul_operands(l, place);
  finish_matmul(l, place);
}

void resolve_row_op(const OnnxLayer& o, Layer& l, const Place& place) {
  check_row_op(l, place);
  if (l.kind == LayerKind::Softmax) l.heads = check_heads(checked_extent(o.heads, "heads", place), l.in, "the input", place);
  if (o.frac_bits) l.frac_bits = checked_frac_bits(o.frac_bits, std::to_string(*o.frac_bits), place);
  finish_row_op(l);
}

void resolve_kind(const OnnxLayer& o, Layer& l, const TensorShapes& shapes, const Place& place) {
  switch (l.kind) {
    case LayerKind::Conv: return resolve_conv(o, l, place);
    case LayerKind::Fc:
      l.out = {l.in.h, l.in.w, checked_extent(o.channels, "n", place)};
      return;
    case LayerKind::Pool: return resolve_pool(o, l, place);
    case LayerKind::Matmul: return resolve_matmul(o, l, place);
    case LayerKind::Concat: return finish_concat(l, shapes, place);
    case LayerKind::Embedding: return finish_embedding(l, checked_extent(o.channels, "n", place), place);
    case LayerKind::Upsample: return finish_upsample(l, l.out.h, l.out.w, place);  // the handler gave the size
    case LayerKind::GatherChannels: return finish_gather_channels(l, o.gathered, place);
    case LayerKind::ConcatTokens: return finish_concat_tokens(l, checked_extent(o.channels, "tokens", place), place);
    case LayerKind::Softmax:
    case LayerKind::LayerNorm:
    case LayerKind::Gelu: return resolve_row_op(o, l, place);
    default:
      if (l.is_activation()) return resolve_row_op(o, l, place);
      return finish_elementwise(l, shapes, place);
  }
}

// One layer: its name, the tensors it reads, its kind's fields, its shift.
Layer resolve_layer(OnnxLayer& o, std::size_t index, const TensorShapes& shapes, const std::string& path) {
  Layer l = std::move(o.layer);
  Place place{path, fmt::format("layers[{}] ({})", index, l.name)};
  check_layer_name(l.name, shapes, place);
  const bool listed = l.kind == LayerKind::Add || l.kind == LayerKind::Matmul || l.kind == LayerKind::Concat ||
                      l.kind == LayerKind::Mul;
  check_inputs_known(l.inputs, shapes, listed ? "inputs" : "input", place);
  l.in = shapes.at(l.inputs[0]);
  if (l.inputs.size() == 2) l.in_b = shapes.at(l.inputs[1]);
  resolve_kind(o, l, shapes, place);
  if (l.has_weights() || l.kind == LayerKind::Matmul || l.kind == LayerKind::Mul)
    l.shift = o.shift ? checked_shift(o.shift, std::to_string(*o.shift), place) : default_layer_shift(l);
  return l;
}

}  // namespace

Workload resolve_onnx_layers(OnnxImport& imported, const std::string& path) {
  if (imported.layers.empty()) Place{path, ""}.fail("layers", "must be a non-empty list of layers");
  Workload w;
  w.file = path;
  w.name = utf8_name(imported.name);
  w.batch = imported.batch;
  w.input = imported.input;
  TensorShapes shapes{{"input", w.input}};
  for (std::size_t i = 0; i < imported.layers.size(); ++i) {
    Layer l = resolve_layer(imported.layers[i], i, shapes, path);
    if (l.kind == LayerKind::Embedding)
      check_token_ids(l, w.batch, w.seed, {path, fmt::format("layers[{}] ({})", i, l.name)});
    shapes[l.name] = l.out;
    if (auto it = imported.weights.find(l.name); it != imported.weights.end()) {
      l.weight_values = std::make_shared<const std::vector<std::int8_t>>(std::move(it->second.values));
      if (!it->second.bias.empty())
        l.bias_values = std::make_shared<const std::vector<std::int32_t>>(std::move(it->second.bias));
    }
    if (auto origin = imported.origins.find(l.name); origin != imported.origins.end()) l.onnx = origin->second;
    w.layers.push_back(std::move(l));
  }
  w.notes = std::move(imported.notes);
  return w;
}

}  // namespace npusim
