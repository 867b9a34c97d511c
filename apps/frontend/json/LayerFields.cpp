// The kind-specific fields of a JSON workload layer (docs/workload-format.md); the
// shapes they give are checked by the rules every reader shares (LayerChecks).
#include <fmt/format.h>

#include "apps/frontend/json/JsonFields.h"

namespace npusim {

namespace {

void read_strides(const Json& obj, Layer& l, const Place& place) {
  const std::uint32_t both = positive(obj, "stride", place, 1);
  l.sh = positive(obj, "sh", place, both);
  l.sw = positive(obj, "sw", place, both);
}

void read_kernel(const Json& obj, Layer& l, const Place& place) {
  const std::uint32_t both = obj.contains("k") ? positive(obj, "k", place) : 0;
  l.kh = positive(obj, "kh", place, both);
  l.kw = positive(obj, "kw", place, both);
}

void read_conv(const Json& obj, Layer& l, const Place& place) {
  check_declared(obj, "hi", l.in.h, place);
  check_declared(obj, "wi", l.in.w, place);
  check_declared(obj, "ci", l.in.c, place);
  read_kernel(obj, l, place);
  read_strides(obj, l, place);
  l.dilation = positive(obj, "dilation", place, 1);
  check_dilation(l, place);
  const std::uint32_t groups = positive(obj, "groups", place, 1);
  const std::uint32_t co = positive(obj, "co", place, groups == l.in.c ? l.in.c : 0);
  apply_groups(l, groups, co, place);
  const auto kernel = dilated_kernel(l, place);
  l.pad = read_padding(obj, l, kernel[0], kernel[1], place);
  finish_conv(l, kernel, co, place);
}

void read_fc(const Json& obj, Layer& l, const Place& place) {
  check_declared(obj, "k", l.in.c, place);
  check_declared(obj, "m", l.in.h * l.in.w, place);
  l.out = {l.in.h, l.in.w, positive(obj, "n", place)};
}

void read_pool(const Json& obj, Layer& l, const Place& place) {
  const std::string mode = text(obj, "mode", place, "max");
  if (mode != "max" && mode != "avg") place.fail("mode", "must be \"max\" or \"avg\"");
  l.pool_max = mode == "max";
  if (flag(obj, "global", place)) {
    l.kh = l.in.h;
    l.kw = l.in.w;
  } else {
    read_kernel(obj, l, place);
  }
  read_strides(obj, l, place);
  l.pad = read_padding(obj, l, l.kh, l.kw, place);
  finish_pool(l, place);
}

// PyTorch's F.interpolate by default: nearest reads floor(o · in / out) (asymmetric,
// floor), bilinear the half-pixel centres (align_corners=False).
void read_upsample(const Json& obj, Layer& l, const Place& place) {
  const std::string mode = text(obj, "mode", place, "nearest");
  if (mode != "nearest" && mode != "bilinear") place.fail("mode", "must be \"nearest\" or \"bilinear\"");
  l.resample.bilinear = mode == "bilinear";
  const auto coords = resize_coords_named(text(obj, "coordinates", place, mode == "nearest" ? "asymmetric" : "half_pixel"));
  if (!coords) place.fail("coordinates", "must be half_pixel, pytorch_half_pixel, asymmetric or align_corners");
  l.resample.coords = *coords;
  const auto nearest = nearest_round_named(text(obj, "nearest_mode", place, "floor"));
  if (!nearest) place.fail("nearest_mode", "must be floor, round_prefer_floor, round_prefer_ceil or ceil");
  l.resample.nearest = *nearest;
  const std::uint32_t scale = positive(obj, "scale", place, 2);
  if (std::uint64_t(l.in.h) * scale > kMaxExtent || std::uint64_t(l.in.w) * scale > kMaxExtent)
    place.fail("scale", "gives a map larger than any network needs");
  finish_upsample(l, positive(obj, "h", place, l.in.h * scale), positive(obj, "w", place, l.in.w * scale), place);
}

std::uint32_t read_heads(const Json& obj, const MapShape& t, const char* operand, const Place& place) {
  return check_heads(positive(obj, "heads", place, 1), t, operand, place);
}

void read_matmul(const Json& obj, Layer& l, const Place& place) {
  l.heads = read_heads(obj, l.in, "inputs[0]", place);
  read_heads(obj, l.in_b, "inputs[1]", place);
  l.transpose_b = flag(obj, "transpose_b", place);
  if (obj.contains("kv_cache_tokens")) l.kv_cache_tokens = positive(obj, "kv_cache_tokens", place);
  check_kv_cache(l, place);
  check_matmul_operands(l, place);
  const MatmulShape s = l.matmul();
  check_declared(obj, "m", s.m, place);
  check_declared(obj, "k", s.k, place);
  check_declared(obj, "n", s.n, place);
  finish_matmul(l, place);
}

void read_row_op(const Json& obj, Layer& l, const Place& place) {
  check_row_op(l, place);
  if (l.kind == LayerKind::Softmax) l.heads = read_heads(obj, l.in, "the input", place);
  if (obj.contains("frac_bits"))
    l.frac_bits = checked_frac_bits(integer(obj.at("frac_bits")), obj.at("frac_bits").dump(), place);
  finish_row_op(l);
}

// "vocab" rows of "n" values; "ids": the token of every input position, image by image.
void read_embedding(const Json& obj, Layer& l, const Place& place) {
  l.vocab = positive(obj, "vocab", place);
  if (obj.contains("ids")) {
    const Json& v = obj.at("ids");
    std::vector<std::uint32_t> ids;
    for (std::size_t i = 0; v.is_array() && i < v.size(); ++i) {
      const auto id = integer(v[i]);
      if (!id || *id > kMaxExtent) place.fail("ids", fmt::format("ids[{}] must be a token id from 0 to {}", i, kMaxExtent));
      ids.push_back(std::uint32_t(*id));
    }
    if (!v.is_array()) place.fail("ids", "must be a list of token ids");
    l.token_ids = std::make_shared<const std::vector<std::uint32_t>>(std::move(ids));
  }
  finish_embedding(l, positive(obj, "n", place), place);
}

void read_gather_channels(const Json& obj, Layer& l, const Place& place) {
  const Json* v = obj.contains("channels") ? &obj.at("channels") : nullptr;
  if (!v || !v->is_array() || v->empty()) place.fail("channels", "must be a non-empty list of input channels");
  std::vector<std::uint32_t> ids;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const auto id = integer((*v)[i]);
    if (!id || *id > kMaxExtent) place.fail("channels", fmt::format("channels[{}] must be a channel from 0 to {}", i, kMaxExtent));
    ids.push_back(std::uint32_t(*id));
  }
  finish_gather_channels(l, std::move(ids), place);
}

// A signed int8 (the only signed field: integer() reads counts and sizes).
std::int32_t read_fill(const Json& v, const Place& place) {
  std::optional<std::int64_t> fill;
  if (v.is_number_unsigned() && v.get<std::uint64_t>() <= 127) fill = v.get<std::int64_t>();
  if (v.is_number_integer() && !v.is_number_unsigned()) fill = v.get<std::int64_t>();
  return checked_fill(fill, v.dump(), place);
}

LayerKind kind_of(const std::string& type) {
  static const std::map<std::string, LayerKind> kinds = {
      {"conv", LayerKind::Conv},       {"fc", LayerKind::Fc},           {"gemm", LayerKind::Fc},
      {"pool", LayerKind::Pool},       {"add", LayerKind::Add},         {"concat", LayerKind::Concat},
      {"relu", LayerKind::Relu},       {"matmul", LayerKind::Matmul},   {"softmax", LayerKind::Softmax},
      {"layernorm", LayerKind::LayerNorm}, {"gelu", LayerKind::Gelu},   {"sigmoid", LayerKind::Sigmoid},
      {"hardsigmoid", LayerKind::HardSigmoid}, {"hardswish", LayerKind::HardSwish}, {"silu", LayerKind::Silu},
      {"tanh", LayerKind::Tanh},       {"mul", LayerKind::Mul},         {"add_constant", LayerKind::AddConstant},
      {"mask", LayerKind::Mask},       {"embedding", LayerKind::Embedding}, {"upsample", LayerKind::Upsample},
      {"concat_tokens", LayerKind::ConcatTokens}, {"gather_channels", LayerKind::GatherChannels}};
  return kinds.at(type);
}

}  // namespace

void read_layer_fields(const Json& obj, const std::string& type, Layer& l, const TensorShapes& shapes,
                       const Place& place) {
  l.kind = kind_of(type);
  switch (l.kind) {
    case LayerKind::Conv: return read_conv(obj, l, place);
    case LayerKind::Fc: return read_fc(obj, l, place);
    case LayerKind::Pool: return read_pool(obj, l, place);
    case LayerKind::Matmul: return read_matmul(obj, l, place);
    case LayerKind::Concat: return finish_concat(l, shapes, place);
    case LayerKind::Embedding: return read_embedding(obj, l, place);
    case LayerKind::Upsample: return read_upsample(obj, l, place);
    case LayerKind::ConcatTokens: return finish_concat_tokens(l, positive(obj, "tokens", place), place);
    case LayerKind::GatherChannels: return read_gather_channels(obj, l, place);
    case LayerKind::Softmax:
    case LayerKind::LayerNorm:
    case LayerKind::Gelu: return read_row_op(obj, l, place);
    default:
      if (l.is_activation()) return read_row_op(obj, l, place);
      if (l.kind == LayerKind::Mask && obj.contains("fill")) l.fill = read_fill(obj.at("fill"), place);
      return finish_elementwise(l, shapes, place);
  }
}

const std::map<std::string, std::vector<std::string>>& layer_keys() {
  static const std::vector<std::string> common = {"name", "type", "input", "dtype", "relu", "weight_sparsity",
                                                  "activation_sparsity"};
  static const std::map<std::string, std::vector<std::string>> extra = {
      {"conv", {"hi", "wi", "ci", "co", "k", "kh", "kw", "stride", "sh", "sw", "padding", "dilation", "groups",
                "weights", "shift", "engine", "split"}},
      {"fc", {"m", "n", "k", "weights", "shift", "engine", "split"}},
      {"gemm", {"m", "n", "k", "weights", "shift", "engine", "split"}},
      {"pool", {"mode", "k", "kh", "kw", "stride", "sh", "sw", "padding", "global"}},
      {"add", {"inputs"}},
      {"concat", {"inputs"}},
      {"relu", {}},
      {"matmul", {"inputs", "heads", "transpose_b", "kv_cache_tokens", "m", "k", "n", "shift"}},
      {"softmax", {"heads", "frac_bits"}},
      {"layernorm", {}},
      {"gelu", {"frac_bits"}},
      {"sigmoid", {"frac_bits"}},
      {"hardsigmoid", {"frac_bits"}},
      {"hardswish", {"frac_bits"}},
      {"silu", {"frac_bits"}},
      {"tanh", {"frac_bits"}},
      {"mul", {"inputs", "shift"}},
      {"add_constant", {"weights"}},
      {"mask", {"weights", "fill"}},
      {"embedding", {"vocab", "n", "ids", "weights"}},
      {"upsample", {"mode", "scale", "h", "w", "coordinates", "nearest_mode"}},
      {"concat_tokens", {"tokens", "weights"}},
      {"gather_channels", {"channels"}},
  };
  static const std::map<std::string, std::vector<std::string>> all = [] {
    std::map<std::string, std::vector<std::string>> keys;
    for (const auto& [type, own] : extra) {
      keys[type] = common;
      keys[type].insert(keys[type].end(), own.begin(), own.end());
    }
    return keys;
  }();
  return all;
}

}  // namespace npusim
