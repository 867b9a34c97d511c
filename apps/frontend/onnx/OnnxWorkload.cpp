#include "apps/frontend/onnx/OnnxWorkload.h"

#include "apps/frontend/onnx/OnnxImporter.h"
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
  OnnxImport imported = import_onnx_graph(*model, options.functional);
  return resolve_onnx_layers(imported, path);
}

}  // namespace npusim
