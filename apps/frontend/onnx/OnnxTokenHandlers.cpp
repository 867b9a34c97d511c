// Tokens joined along the token axis (docs/workload-format.md, "Tokens: class token"):
// a Concat of constant rows (a ViT's class token, expanded over the batch) before the
// patch tokens becomes concat_tokens, whose constant rows sit in DRAM like weights and
// are written into the output by the load and store DMAs beside the copied patch rows.
#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxGraphImporter.h"

namespace npusim {

// The rows of one image of constant input `input` ([N or 1, k, C]); the images agree.
std::vector<double> OnnxGraphImporter::constant_token_rows(const Node& n, int input, std::int64_t channels) const {
  const auto& d = dims(n, n.input(input));
  if (d.size() != 3 || d[2] != channels || (d[0] != 1 && d[0] != batch_))
    fail(n, fmt::format("the constant input {} is [{}]; constant rows must be [N or 1, tokens, {}]", input,
                        fmt::join(d, ", "), channels));
  const std::vector<double> all = constant_values(n, input);
  const std::size_t per_image = std::size_t(d[1] * d[2]);
  for (std::size_t i = per_image; i < all.size(); ++i)
    if (all[i] != all[i % per_image]) fail(n, "the constant rows differ between the images of the batch");
  return std::vector<double>(all.begin(), all.begin() + std::ptrdiff_t(per_image));
}

// Concat(constants..., x) along axis 1 of [N, S, C] tokens: true when emitted as
// concat_tokens; false when no input is a constant (the channel concat takes it).
bool OnnxGraphImporter::token_concat(const Node& n) {
  int constants = 0;
  while (constants < n.input_size() && has_input(n, constants) && model_.constant(n.input(constants))) ++constants;
  if (constants == 0) return false;
  const auto& out_dims = dims(n, n.output(0));
  std::int64_t axis = onnx_int(n, "axis", 0);
  if (axis < 0) axis += std::int64_t(out_dims.size());
  if (constants + 1 != n.input_size() || out_dims.size() != 3 || axis != 1)
    fail(n, "a Concat with constant inputs is supported only as constant rows before one activation of [N, S, C] "
            "tokens, along axis 1 (a class token)");
  const OnnxValue& in = activation(n, constants);
  if (!is_rows(in) || !is_whole(in)) fail(n, "the activation input must be whole [N, S, C] tokens in storage order");
  if (in.affine) unapplied_affine(n);
  std::vector<double> rows;
  for (int i = 0; i < constants; ++i) {
    const std::vector<double> r = constant_token_rows(n, i, in.map.c);
    rows.insert(rows.end(), r.begin(), r.end());
  }
  std::vector<std::int8_t> q;
  for (double v : rows) q.push_back(quantized(v, in.exponent));
  OnnxLayer layer = onnx_layer(LayerKind::ConcatTokens);
  layer.channels = std::int64_t(rows.size() / in.map.c);
  OnnxValue out = rows_value("", -1, batch_, {std::uint32_t(out_dims[1]), 1, in.map.c}, out_dims);
  out.exponent = in.exponent;
  const int index = emit(n, std::move(layer), in, out);
  result_.weights[result_.layers[std::size_t(index)].layer.name] = QuantizedWeights{std::move(q), in.exponent, {}, 0};
  return true;
}

}  // namespace npusim
