#include "apps/frontend/onnx/OnnxWorkload.h"

#include <cmath>

#include "apps/frontend/onnx/OnnxFloatPeaks.h"
#include "apps/frontend/onnx/OnnxImporter.h"
#include "apps/frontend/onnx/OnnxLayout.h"
#include "apps/frontend/onnx/OnnxTensor.h"
#include "apps/frontend/onnx/OnnxLayerResolver.h"
#include "apps/frontend/onnx/OnnxModel.h"

namespace npusim {

bool looks_like_onnx(const std::string& path, const std::string& bytes) {
  const bool extension = path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
  // ModelProto's field 1 (ir_version, varint) is what every exporter writes first.
  return extension || (!bytes.empty() && bytes[0] == '\x08');
}

Workload read_onnx_workload(const std::string& path, const WorkloadOptions& options) {
  const auto model = load_onnx_model(path, options.input_shapes);
  OnnxImport imported = import_onnx_graph(*model, options.functional, options.calibrated_exponents);
  return resolve_onnx_layers(imported, path);
}

namespace {

// The importer's Div and Mul by one constant (OnnxTransformerHandlers.cpp): the output's
// exponent is the input's minus (Div) or plus (Mul) log2 of the constant, a power of two.
ScaledFrom scaled_from(const OnnxModel& model) {
  return [&model](const std::string& value) -> std::optional<std::pair<std::string, int>> {
    for (const auto& n : model.graph().node()) {
      if (n.output_size() < 1 || n.output(0) != value || n.input_size() != 2) continue;
      if (n.op_type() != "Div" && n.op_type() != "Mul") return std::nullopt;
      const int k = model.constant(n.input(1)) ? 1 : model.constant(n.input(0)) && n.op_type() == "Mul" ? 0 : -1;
      if (k < 0) return std::nullopt;
      const auto c = tensor_values(*model.constant(n.input(k)), model.file);
      if (c.size() != 1 || !(c[0] > 0) || std::exp2(std::round(std::log2(c[0]))) != c[0]) return std::nullopt;
      const int log2c = int(std::lround(std::log2(c[0])));
      return std::make_pair(n.input(1 - k), n.op_type() == "Div" ? -log2c : log2c);
    }
    return std::nullopt;
  };
}

}  // namespace

Calibration calibrate_onnx_workload(const std::string& path, const WorkloadOptions& options, int count,
                                    std::uint64_t seed) {
  const auto model = load_onnx_model(path, options.input_shapes);
  const auto& dims = model->shapes.at(model->input);
  Calibration c;
  c.inputs = count;
  c.seed = seed;
  const double range = std::ldexp(127.0, onnx_input_exponent(dims.size()));
  for (const auto& input : calibration_inputs(seed, count, std::size_t(saturating_product(dims)), range))
    raise_float_peaks(*model, input, c.peaks);
  const ScaleGroups groups =
      onnx_scale_groups(model->graph(), [&](const std::string& v) { return model->constant(v) != nullptr; });
  c.exponents = groups.exponents(c.peaks);
  limit_activation_inputs(model->graph(), groups, c.exponents, scaled_from(*model));
  return c;
}

}  // namespace npusim
