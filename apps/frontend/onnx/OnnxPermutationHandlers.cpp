// Channel permutations (docs/workload-format.md, "Channel shuffle"): ShuffleNet's
// Reshape [N, C, H, W] -> [N, g, C/g, H, W], Transpose(0, 2, 1, 3, 4), Reshape back moves
// no data at import. The shuffled value keeps the tensor and an order of its channels: a
// Conv reading it takes its input channels in that order (its weights permuted, no data
// moves), a Slice of its channels becomes gather_channels, whose DMAs move the part's
// channels. Any other reader gets the whole shuffle as one gather_channels.
#include <algorithm>

#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxGraphImporter.h"

namespace npusim {

// The tensor channel of each channel of the [N, C, H, W] result, when `in` (a view of a
// plain map) only reorders the channels of each position; empty otherwise.
std::optional<std::vector<std::uint32_t>> OnnxGraphImporter::shuffle_order(const OnnxValue& in,
                                                                           const std::vector<std::int64_t>& to) const {
  const std::int64_t c = in.map.c, rank = std::int64_t(in.dims.size());
  if (in.channel_order || to.size() != 4 || rank < 4 || to[1] != c || to[2] != in.map.h || to[3] != in.map.w ||
      in.strides[std::size_t(rank - 2)] != std::int64_t(in.map.w) * c || in.strides[std::size_t(rank - 1)] != c ||
      in.offset != 0 || in.dims[std::size_t(rank - 2)] != in.map.h || in.dims[std::size_t(rank - 1)] != in.map.w)
    return std::nullopt;
  std::vector<std::uint32_t> order;
  for (std::int64_t k = 0; k < c; ++k) {
    std::int64_t at = 0, rest = k;
    for (std::int64_t d = rank - 3; d >= 1; --d) {
      at += rest % in.dims[std::size_t(d)] * in.strides[std::size_t(d)];
      rest /= in.dims[std::size_t(d)];
    }
    if (rest != 0 || at < 0 || at >= c) return std::nullopt;
    order.push_back(std::uint32_t(at));
  }
  std::vector<std::uint32_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (std::uint32_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != i) return std::nullopt;
  return order;
}

bool OnnxGraphImporter::keeps_shuffle(const std::string& value) const {
  for (const Node* r : readers(value)) {
    const bool conv = r->op_type() == "Conv" && r->input(0) == value && onnx_int(*r, "group", 1) == 1;
    if (!conv && r->op_type() != "Slice" && r->op_type() != "Shape") return false;
  }
  return true;
}

bool OnnxGraphImporter::channel_shuffle(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  const auto order = shuffle_order(in, dims(n, n.output(0)));
  if (!order) return false;
  OnnxValue v = nchw_value(in.tensor, in.layer, in.batch, in.map);
  v.exponent = in.exponent;
  v.affine = in.affine;
  v.channel_order = std::make_shared<const std::vector<std::uint32_t>>(*order);
  if (keeps_shuffle(n.output(0))) {
    alias(n, std::move(v));
    return true;
  }
  gather_part(n, v, 0, std::int64_t(order->size()));  // other readers: the shuffle done by DMA
  return true;
}

// Channels [first, end) of the shuffled value, in its order: gather_channels.
void OnnxGraphImporter::gather_part(const Node& n, const OnnxValue& in, std::int64_t first, std::int64_t end) {
  if (in.affine) unapplied_affine(n);
  OnnxLayer layer = onnx_layer(LayerKind::GatherChannels);
  layer.gathered.assign(in.channel_order->begin() + first, in.channel_order->begin() + end);
  OnnxValue source = in;
  source.channel_order = nullptr;
  source.affine = nullptr;  // reported above
  OnnxValue out = nchw_value("", -1, batch_, {in.map.h, in.map.w, std::uint32_t(end - first)});
  out.exponent = in.exponent;
  emit(n, std::move(layer), source, out);
}

// ONNX weights [co][C][kh][kw] of a Conv reading a shuffled value: input channel k moves
// to the tensor channel that holds it.
void OnnxGraphImporter::unshuffle_weights(const Node& n, const OnnxValue& in, std::vector<double>& weights) const {
  const std::vector<std::uint32_t>& order = *in.channel_order;
  const auto& wd = dims(n, n.input(1));
  if (onnx_int(n, "group", 1) != 1 || wd.size() != 4 || wd[1] != std::int64_t(order.size()))
    fail(n, "reads a channel shuffle: only a Conv of group 1 takes it in its weights");
  const std::size_t c = order.size(), taps = std::size_t(wd[2] * wd[3]);
  std::vector<double> out(weights.size());
  for (std::size_t o = 0; o < std::size_t(wd[0]); ++o)
    for (std::size_t k = 0; k < c; ++k)
      std::copy_n(weights.begin() + std::ptrdiff_t((o * c + k) * taps), taps,
                  out.begin() + std::ptrdiff_t((o * c + order[k]) * taps));
  weights = std::move(out);
}

}  // namespace npusim
