// The importer's structural ops: Pad folded into the window that reads it, ceil-mode
// pooling, a Flatten of a map before a Gemm, a BatchNormalization that follows no conv,
// and grouped convolutions (docs/workload-format.md, "Structure: padding, pooling,
// reshapes, grouped convs").
#include <algorithm>

#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxGraphImporter.h"
#include "apps/frontend/onnx/OnnxTensor.h"
#include "apps/frontend/onnx/OnnxWeights.h"
#include "sim/tensor/WindowGeometry.h"

namespace npusim {

namespace {

using Node = onnx::NodeProto;

double attribute_float(const Node& n, const char* name, double fallback) {
  const auto* a = onnx_attribute(n, name);
  return a ? double(a->f()) : fallback;
}

}  // namespace

// A Pad's pads: its input 1 (opset 11 on) or attribute.
std::vector<std::int64_t> OnnxGraphImporter::pads_of(const Node& n) const {
  if (!has_input(n, 1)) return onnx_ints(n, "pads", {});
  const onnx::TensorProto* t = model_.constant(n.input(1));
  if (!t) fail(n, "the pads must be a constant");
  return tensor_integers(*t, model_.file);
}

// Zero padding of H and W is the padding of the conv or average pool that reads it, so
// no data moves; anything else would have to be copied and is refused.
void OnnxGraphImporter::pad(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  if (pads_of(n) == std::vector<std::int64_t>(2 * in.dims.size(), 0)) return alias(n, in);  // nothing added (Swin)
  if (!is_nchw(in)) fail(n, "only a Pad of an [N, C, H, W] map is supported");
  const auto* mode = onnx_attribute(n, "mode");
  if (mode && mode->s() != "constant")
    fail(n, fmt::format("mode '{}' is not supported: only zeros (mode constant), folded into the Conv or AveragePool "
                        "that reads the map", mode->s()));
  if ((has_input(n, 2) && constant_values(n, 2) != std::vector<double>{0}) || attribute_float(n, "value", 0) != 0)
    fail(n, "only padding with zeros is supported");
  if (has_input(n, 3)) fail(n, "the axes input is not supported (give the pads of all four axes)");
  const std::vector<std::int64_t> p = pads_of(n);
  if (p.size() != 8 || p[0] != 0 || p[1] != 0 || p[4] != 0 || p[5] != 0 ||
      std::any_of(p.begin(), p.end(), [](std::int64_t v) { return v < 0; }))
    fail(n, fmt::format("pads [{}] are not supported: only non-negative padding of H and W", fmt::join(p, ", ")));
  for (const Node* r : readers(n.output(0)))
    if ((r->op_type() != "Conv" && r->op_type() != "AveragePool") || r->input(0) != n.output(0))
      fail(n, fmt::format("is read by node '{}' ({}); a Pad is folded into the Conv or AveragePool that reads it, "
                          "elsewhere it would move data", r->name(), r->op_type()));
  folded_pads_[n.output(0)] = {p[2], p[6], p[3], p[7]};
  alias(n, in);
}

bool OnnxGraphImporter::fold_pad(const Node& n, OnnxLayer& layer) const {
  const auto it = folded_pads_.find(n.input(0));
  if (it == folded_pads_.end()) return false;
  for (std::size_t i = 0; i < 4; ++i) layer.pads[i] += it->second[i];
  return true;
}

// ceil_mode keeps a last window that starts inside the (padded) map and runs past its
// end: the same as padding the bottom and right by the overhang, which max pooling and
// an average over the real positions ignore.
void OnnxGraphImporter::ceil_mode_padding(const Node& n, OnnxLayer& layer, const MapShape& in,
                                          const std::vector<std::int64_t>& od, bool padding_counted) {
  const bool ceil = onnx_int(n, "ceil_mode", 0) != 0;
  const std::uint32_t extents[2] = {in.h, in.w};
  for (std::size_t axis = 0; axis < 2; ++axis) {
    const std::int64_t lo = layer.pads[2 * axis], hi = layer.pads[2 * axis + 1], k = layer.kernel[axis];
    const std::int64_t s = layer.strides[axis], want = od[axis + 2];
    const std::int64_t overhang = (want - 1) * s + k - (extents[axis] + lo + hi);
    if (overhang <= 0) continue;
    if (!ceil || overhang >= k)
      fail(n, fmt::format("its output {} is larger than the floor rule gives", fmt::join(od, "x")));
    if (padding_counted)
      fail(n, "ceil_mode with count_include_pad (or a folded Pad) is not supported: the windows past the padding "
              "would divide by fewer positions than the others");
    layer.pads[2 * axis + 1] += overhang;
  }
  for (std::size_t axis = 0; axis < 2; ++axis)
    if (std::int64_t(window_outputs(extents[axis], std::uint64_t(layer.pads[2 * axis]),
                                    std::uint64_t(layer.pads[2 * axis + 1]), std::uint64_t(layer.kernel[axis]),
                                    std::uint64_t(layer.strides[axis]))) != od[axis + 2])
      fail(n, fmt::format("its output {} is not what its window gives", fmt::join(od, "x")));
}

// Σ window / (kh·kw) with the padding's zeros in the window: a depthwise conv whose
// weights are all 1 / (kh·kw), on the vector unit as a pool would be. Exact when kh·kw is
// a power of two (DenseNet's 2x2); 1/9 is the int8 weight 114 / 1024 (0.2 % high).
void OnnxGraphImporter::padded_average(const Node& n, OnnxLayer pool, const OnnxValue& in) {
  const auto own = onnx_ints(n, "pads", {0, 0, 0, 0});
  if (onnx_int(n, "count_include_pad", 0) == 0 && std::any_of(own.begin(), own.end(), [](std::int64_t p) { return p != 0; }))
    fail(n, "reads a Pad and pads again with count_include_pad 0: the divisor would count some padding and not the "
            "rest");
  const std::uint32_t c = in.map.c;
  const auto taps = std::uint32_t(pool.kernel[0] * pool.kernel[1]);
  OnnxLayer layer = onnx_layer(LayerKind::Conv);
  layer.kernel = pool.kernel, layer.strides = pool.strides, layer.pads = pool.pads;
  layer.channels = c;
  layer.groups = c;
  const auto& od = dims(n, n.output(0));
  const OnnxValue out = nchw_value("", -1, batch_, {std::uint32_t(od[2]), std::uint32_t(od[3]), c});
  emit_weighted(n, std::move(layer), in, out, std::vector<double>(std::size_t(c) * taps, 1.0 / taps),
                std::vector<double>(c, 0.0), false, c, 1, std::uint32_t(pool.kernel[0]), std::uint32_t(pool.kernel[1]),
                c > 1);
}

bool OnnxGraphImporter::flatten_for_gemm(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  const auto& to = dims(n, n.output(0));
  if (!is_nchw(in) || to.size() != 2 || to[0] != in.dims[0]) return false;
  const auto r = readers(n.output(0));
  const bool gemms = !r.empty() && std::all_of(r.begin(), r.end(), [&](const Node* g) {
    return (g->op_type() == "Gemm" || g->op_type() == "MatMul") && g->input(0) == n.output(0) &&
           model_.constant(g->input(1));
  });
  if (!gemms) return false;
  flattened_.insert(n.output(0));
  alias(n, in);  // only those Gemms read it, as the map it is
  return true;
}

// The Gemm's (or MatMul's) k = C·H·W features in NCHW order are a conv kernel [co][C][H][W] over the
// whole map: the same MACs, with the weights in npusim's [co][H][W][C] order.
void OnnxGraphImporter::flattened_gemm(const Node& n, std::vector<double> weights, std::vector<double> bias,
                                       std::uint32_t co) {
  const OnnxValue& in = activation(n, 0);
  OnnxLayer layer = onnx_layer(LayerKind::Conv);
  layer.kernel = {in.map.h, in.map.w};
  layer.channels = co;
  const OnnxValue out = rows_value("", -1, batch_, {1, 1, co}, dims(n, n.output(0)));
  emit_weighted(n, std::move(layer), in, out, std::move(weights), std::move(bias), false, co, in.map.c, in.map.h,
                in.map.w, false);
}

const onnx::NodeProto* OnnxGraphImporter::fold_next_batch_norm(const Node& n, std::vector<double>& weights,
                                                               std::vector<double>& bias, std::uint32_t co) {
  const Node* next = sole_consumer(n.output(0));
  if (!next || next->op_type() != "BatchNormalization") return nullptr;
  std::vector<std::vector<double>> p;
  for (int i = 1; i <= 4; ++i) p.push_back(constant_values(*next, i));
  for (const auto& v : p)
    if (v.size() != co) fail(*next, fmt::format("needs {} values per parameter (the conv's channels)", co));
  fold_batch_norm(weights, bias, p[0], p[1], p[2], p[3], attribute_float(*next, "epsilon", 1e-5));
  fused_.insert(next);
  return next;
}

// nn.MultiheadAttention's packed projection: one MatMul to 3·E channels sliced into q,
// k and v along the last axis (bounds from shape arithmetic, folded at import). As for
// a Split, the projection becomes one layer per block, so no data moves.
void OnnxGraphImporter::slice(const Node& n) {
  // The projection's other slices may have cut it into parts already: each reads it anew.
  const auto earlier = values_.find(n.input(0));
  const bool cut = earlier != values_.end() && split_layers_.count(earlier->second.tensor);
  const OnnxValue in = cut ? earlier->second : activation(n, 0);
  auto known = [&](int i) {
    if (!has_input(n, i)) return std::vector<std::int64_t>{};
    const onnx::TensorProto* t = model_.constant(n.input(i));
    if (!t) fail(n, fmt::format("input {} must be known at import (a constant or shape arithmetic on constants)", i));
    return tensor_integers(*t, model_.file);
  };
  const auto starts = known(1), ends = known(2), axes = known(3), steps = known(4);
  if (starts.size() != 1 || ends.size() != 1 || axes.size() > 1)
    fail(n, "only a Slice along one axis is supported");
  if (!steps.empty() && steps[0] != 1) fail(n, "only a Slice with step 1 is supported");
  const auto rank = std::int64_t(in.dims.size());
  const std::int64_t axis = axes.empty() ? 0 : axes[0] < 0 ? axes[0] + rank : axes[0];
  if (axis < 0 || axis >= rank) fail(n, "the axis is outside the input's rank");
  const std::int64_t extent = in.dims[std::size_t(axis)];
  auto bound = [&](std::int64_t v) { return std::clamp<std::int64_t>(v < 0 ? v + extent : v, 0, extent); };
  const std::int64_t start = bound(starts[0]), end = bound(ends[0]);
  if (end <= start) fail(n, "the slice is empty");
  if (in.channel_order && axis == 1) return gather_part(n, in, start, end);
  OnnxValue part = in;
  part.dims[std::size_t(axis)] = end - start;
  part.offset += start * in.strides[std::size_t(axis)];
  alias(n, channel_part(n, part, int(start / (end - start))));
}

// y = x·γ/√(σ²+ε) + (β - μ·γ/√(σ²+ε)) per channel: a 1x1 depthwise conv on the vector
// unit (one multiply per element), its bias the shift.
void OnnxGraphImporter::batch_norm_alone(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  if (!is_nchw(in)) fail(n, "a BatchNormalization no Conv precedes must read an [N, C, H, W] map");
  const std::uint32_t c = in.map.c;
  std::vector<std::vector<double>> p;
  for (int i = 1; i <= 4; ++i) p.push_back(constant_values(n, i));
  for (const auto& v : p)
    if (v.size() != c) fail(n, fmt::format("needs {} values per parameter (the input's channels)", c));
  std::vector<double> scale(c, 1.0), shift(c, 0.0);
  fold_batch_norm(scale, shift, p[0], p[1], p[2], p[3], attribute_float(n, "epsilon", 1e-5));
  emit_channel_scale(n, in, nchw_value("", -1, batch_, in.map), std::move(scale), std::move(shift));
}

void OnnxGraphImporter::emit_channel_scale(const Node& n, const OnnxValue& in, const OnnxValue& out,
                                           std::vector<double> scale, std::vector<double> shift) {
  const std::uint32_t c = in.map.c;
  OnnxLayer layer = onnx_layer(LayerKind::Conv);
  layer.channels = c;
  layer.groups = c;
  emit_weighted(n, std::move(layer), in, out, std::move(scale), std::move(shift), false, c, 1, 1, 1, c > 1);
}

}  // namespace npusim
