#include "apps/frontend/onnx/OnnxWorkload.h"

#include <cmath>

#include "apps/frontend/onnx/OnnxFloatPeaks.h"
#include "apps/frontend/onnx/OnnxImporter.h"
#include "apps/frontend/onnx/OnnxLayout.h"
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
  limit_activation_inputs(model->graph(), groups, c.exponents);
  return c;
}

}  // namespace npusim
