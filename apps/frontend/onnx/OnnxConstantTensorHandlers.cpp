// Constant tensors read by the vector unit (docs/workload-format.md, "Activations and
// elementwise"): an Add of a constant that is not one value per channel (positional
// embeddings, a relative bias) becomes add_constant; a Where that keeps an activation
// where a constant condition holds and fills the rest with one number (a causal mask),
// or an Add of a mask of 0 and -inf, becomes mask. The constant is laid out as the
// activation's tensor stores one image, quantized at its scale, and stored in DRAM.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxGraphImporter.h"
#include "apps/frontend/onnx/OnnxTensor.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

using Node = onnx::NodeProto;

bool is_mask_value(double v) { return v == 0 || (std::isinf(v) && v < 0); }

}  // namespace

std::int8_t quantized(double v, int exponent) {
  return std::int8_t(std::clamp(std::round(std::ldexp(v, -exponent)), -128.0, 127.0));
}

// The constant broadcast to `in`'s dims (numpy's rule), each element at the place `in`'s
// view gives it in one image of its tensor; the images of the batch must agree.
std::vector<double> OnnxGraphImporter::per_image_constant(const Node& n, const OnnxValue& in,
                                                          const std::vector<double>& values,
                                                          const std::vector<std::int64_t>& cdims) const {
  const std::size_t rank = in.dims.size(), shift = rank - std::min(rank, cdims.size());
  bool fits = cdims.size() <= rank;
  for (std::size_t i = 0; fits && i < cdims.size(); ++i) fits = cdims[i] == 1 || cdims[i] == in.dims[i + shift];
  if (!fits || !is_whole(in))
    fail(n, fmt::format("the constant [{}] does not broadcast to the activation [{}]", fmt::join(cdims, ", "),
                        fmt::join(in.dims, ", ")));
  const std::int64_t per_image = in.map.elements();
  std::vector<double> out(std::size_t(per_image), std::nan(""));
  std::vector<std::int64_t> idx(rank, 0);
  for (std::int64_t e = 0; e < in.elements(); ++e) {
    std::int64_t at = in.offset, from = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      at += idx[d] * in.strides[d];
      if (d >= shift) from = from * cdims[d - shift] + (cdims[d - shift] == 1 ? 0 : idx[d]);
    }
    double& slot = out[std::size_t(at % per_image)];
    const double v = values[std::size_t(from)];
    if (!std::isnan(slot) && slot != v) fail(n, "the constant differs between the images of the batch");
    slot = v;
    for (std::size_t d = rank; d-- > 0 && ++idx[d] == in.dims[d];) idx[d] = 0;
  }
  return out;
}

void OnnxGraphImporter::add_constant(const Node& n, int constant_input) {
  const OnnxValue& in = activation(n, 1 - constant_input);
  const std::vector<double> values =
      per_image_constant(n, in, constant_values(n, constant_input), dims(n, n.input(constant_input)));
  if (std::all_of(values.begin(), values.end(), is_mask_value)) {
    std::vector<bool> keep;
    for (double v : values) keep.push_back(v == 0);
    return emit_mask(n, in, keep, -128);
  }
  std::vector<std::int8_t> q;
  for (double v : values) q.push_back(quantized(v, in.exponent));
  OnnxValue out = in;
  out.probabilities = false;
  out.affine = nullptr;  // a LayerNormalization's scale and bias would have to come first
  const int index = emit(n, onnx_layer(LayerKind::AddConstant), in, out);
  result_.weights[result_.layers[std::size_t(index)].layer.name] = QuantizedWeights{std::move(q), in.exponent};
}

// Where(condition, x, fill) or Where(condition, fill, x), the condition a constant.
void OnnxGraphImporter::where_mask(const Node& n) {
  const onnx::TensorProto* condition = has_input(n, 0) ? model_.constant(n.input(0)) : nullptr;
  const bool x_first = has_input(n, 1) && !model_.constant(n.input(1));
  const int fill_input = x_first ? 2 : 1;
  const onnx::TensorProto* fill = has_input(n, fill_input) ? model_.constant(n.input(fill_input)) : nullptr;
  if (!condition || !fill)
    fail(n, "only a Where of a constant condition between an activation and one constant number (a mask) is "
            "supported");
  const std::vector<double> fills = constant_values(n, fill_input);
  if (fills.size() != 1) fail(n, "the value the mask fills in must be one number");
  const OnnxValue& in = activation(n, x_first ? 1 : 2);
  const std::vector<double> cond = per_image_constant(n, in, constant_values(n, 0), dims(n, n.input(0)));
  std::vector<bool> keep;
  for (double c : cond) keep.push_back((c != 0) == x_first);
  emit_mask(n, in, keep, quantized(fills[0], in.exponent));
}

void OnnxGraphImporter::emit_mask(const Node& n, const OnnxValue& in, const std::vector<bool>& keep, int fill) {
  OnnxValue out = in;
  out.probabilities = false;
  out.affine = nullptr;
  OnnxLayer layer = onnx_layer(LayerKind::Mask);
  layer.layer.fill = fill;
  const int index = emit(n, std::move(layer), in, out);
  std::vector<std::int8_t> q(keep.begin(), keep.end());
  result_.weights[result_.layers[std::size_t(index)].layer.name] = QuantizedWeights{std::move(q), 0};
}

}  // namespace npusim

namespace npusim {

bool OnnxGraphImporter::token_input() const {
  for (const auto& in : model_.graph().input())
    if (in.name() == model_.input) {
      const auto type = in.type().tensor_type().elem_type();
      return type == onnx::TensorProto::INT64 || type == onnx::TensorProto::INT32;
    }
  return false;
}

// [N, S] token ids: S rows of one channel (the ids are compile-time data, see embedding).
OnnxValue OnnxGraphImporter::token_ids_value(const std::vector<std::int64_t>& d) const {
  if (d.size() != 2) throw InputError(model_.file, fmt::format("graph input '{}'", model_.input),
                                      "integer inputs are token ids for a Gather of an embedding table: give [N, S]");
  return rows_value("input", -1, std::uint32_t(d[0]), {std::uint32_t(d[1]), 1, 1}, d);
}

// Gather(table, ids) of the token-id input: an embedding layer that gathers rows of the
// table (quantized like weights) from DRAM.
void OnnxGraphImporter::embedding(const Node& n) {
  const OnnxValue& ids = activation(n, 1);
  const auto& td = dims(n, n.input(0));
  if (ids.tensor != "input" || !token_input() || td.size() != 2 || onnx_int(n, "axis", 0) != 0)
    fail(n, "only a Gather of rows of a constant [vocab, d] table by the token-id graph input (an embedding) is "
            "supported");
  QuantizedWeights q = quantize_weights(constant_values(n, 0));
  OnnxValue out = rows_value("", -1, batch_, {ids.map.h, 1, std::uint32_t(td[1])}, dims(n, n.output(0)));
  out.exponent = q.exponent;  // a row keeps the table's scale
  OnnxLayer layer = onnx_layer(LayerKind::Embedding);
  layer.channels = td[1];
  layer.layer.vocab = std::uint32_t(td[0]);
  const int index = emit(n, std::move(layer), ids, out);
  result_.weights[result_.layers[std::size_t(index)].layer.name] = std::move(q);
}

}  // namespace npusim

namespace npusim {

bool OnnxGraphImporter::folds_bias(const OnnxValue& in, const std::vector<double>& bias) const {
  if (std::all_of(bias.begin(), bias.end(), [](double b) { return b == 0; })) return true;
  if (in.layer < 0) return false;  // the network input (a token-type embedding added to it)
  const Layer& producer = result_.layers[std::size_t(in.layer)].layer;
  return producer.has_weights() || producer.kind == LayerKind::Matmul;
}

// x[:, 0] of [N, S, D] tokens (BERT's pooler, a class token): a max pool of one token,
// stride S, keeps each image's first row; other tokens and axes are not taken here.
bool OnnxGraphImporter::first_token(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  const onnx::TensorProto* index = has_input(n, 1) ? model_.constant(n.input(1)) : nullptr;
  if (!index || index->dims_size() != 0 || in.dims.size() != 3 || !is_rows(in) || !is_whole(in) || in.map.w != 1 ||
      onnx_int(n, "axis", 0) != 1 || tensor_integers(*index, model_.file).at(0) != 0)
    return false;
  OnnxLayer pick = onnx_layer(LayerKind::Pool);
  pick.strides = {in.map.h, 1};
  OnnxValue out = rows_value("", -1, batch_, {1, 1, in.map.c}, dims(n, n.output(0)));
  out.exponent = in.exponent;
  out.affine = in.affine;  // picking a token commutes with a per-channel affine
  emit(n, std::move(pick), in, out);
  return true;
}

}  // namespace npusim
