// The importer's Resize (docs/workload-format.md, "Upsampling"): nearest or bilinear
// resampling of an [N, C, H, W] map to the size its `sizes` or `scales` give, as
// torchvision's segmentation heads export F.interpolate.
#include <cmath>

#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxGraphImporter.h"
#include "apps/frontend/workload/LayerChecks.h"

namespace npusim {

namespace {

using Node = onnx::NodeProto;

std::string string_attribute(const Node& n, const char* name, const char* fallback) {
  const auto* a = onnx_attribute(n, name);
  return a ? a->s() : fallback;
}

}  // namespace

Resampling OnnxGraphImporter::resampling_of(const Node& n) const {
  Resampling r;
  const std::string mode = string_attribute(n, "mode", "nearest");
  if (mode != "nearest" && mode != "linear")
    fail(n, fmt::format("mode '{}' is not supported: only nearest and linear (bilinear)", mode));
  r.bilinear = mode == "linear";
  const std::string coords = string_attribute(n, "coordinate_transformation_mode", "half_pixel");
  const auto named = resize_coords_named(coords);
  if (!named)
    fail(n, fmt::format("coordinate_transformation_mode '{}' is not supported: only half_pixel, pytorch_half_pixel, "
                        "asymmetric and align_corners", coords));
  r.coords = *named;
  const std::string rounding = string_attribute(n, "nearest_mode", "round_prefer_floor");
  const auto round = nearest_round_named(rounding);
  if (!round) fail(n, fmt::format("nearest_mode '{}' is not supported", rounding));
  r.nearest = *round;
  if (onnx_attribute(n, "axes") || string_attribute(n, "keep_aspect_ratio_policy", "stretch") != "stretch")
    fail(n, "axes and keep_aspect_ratio_policy are not supported: give the size of all four axes");
  return r;
}

// The output's H and W: from `sizes` (input 3), else from `scales` (input 2; input 1
// before opset 11), which must give whole sizes (the coordinates use out / in).
std::pair<std::uint32_t, std::uint32_t> OnnxGraphImporter::resize_target(const Node& n, const OnnxValue& in) const {
  const std::int64_t from[4] = {in.batch, in.map.c, in.map.h, in.map.w};
  std::vector<double> to;
  if (has_input(n, 3)) {
    to = constant_values(n, 3);
  } else {
    const std::vector<double> scales = constant_values(n, n.input_size() == 2 ? 1 : 2);
    for (std::size_t i = 0; i < scales.size() && i < 4; ++i) to.push_back(double(float(from[i] * scales[i])));
  }
  if (to.size() != 4) fail(n, "the sizes or scales must have four values, [N, C, H, W]");
  for (std::size_t i = 0; i < 4; ++i)
    if (to[i] != std::floor(to[i]) || to[i] < 1 || to[i] > kMaxExtent || (i < 2 && to[i] != double(from[i])))
      fail(n, fmt::format("resizes [{}] to [{}]: only H and W may change, each to a whole size (the scales must "
                          "give one exactly)", fmt::join(from, ", "), fmt::join(to, ", ")));
  return {std::uint32_t(to[2]), std::uint32_t(to[3])};
}

void OnnxGraphImporter::resize(const Node& n) {
  const OnnxValue& in = activation(n, 0);
  if (!is_nchw(in)) fail(n, "only a Resize of an [N, C, H, W] map is supported");
  OnnxLayer layer = onnx_layer(LayerKind::Upsample);
  layer.layer.resample = resampling_of(n);
  const auto [h, w] = resize_target(n, in);
  if (onnx_int(n, "antialias", 0) != 0 && (h < in.map.h || w < in.map.w))
    fail(n, "an antialiased downscale is not supported");
  layer.layer.out = {h, w, in.map.c};
  OnnxValue out = nchw_value("", -1, in.batch, layer.layer.out);
  out.exponent = in.exponent;  // a weighted mean of the input's values, at its scale
  emit(n, std::move(layer), in, out);
}

}  // namespace npusim
