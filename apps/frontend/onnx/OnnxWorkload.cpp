#include "apps/frontend/onnx/OnnxWorkload.h"

#include "apps/frontend/json/TextWorkloads.h"
#include "apps/frontend/onnx/OnnxImporter.h"
#include "apps/frontend/onnx/OnnxModel.h"

namespace npusim {

bool looks_like_onnx(const std::string& path, const std::string& bytes) {
  const bool extension = path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
  // ModelProto's field 1 (ir_version, varint) is what every exporter writes first.
  return extension || (!bytes.empty() && bytes[0] == '\x08');
}

Workload read_onnx_workload(const std::string& bytes, const std::string& path, const WorkloadOptions& options) {
  const auto model = load_onnx_model(path, bytes, options.input_shapes);
  OnnxImport imported = import_onnx_graph(*model, options.functional);
  // ONNX names are bytes (proto2 strings); ones that are not UTF-8 get U+FFFD.
  Workload w = parse_workload_json(imported.workload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), path);
  for (Layer& l : w.layers) {
    auto it = imported.weights.find(l.name);
    if (it != imported.weights.end())
      l.weight_values = std::make_shared<const std::vector<std::int8_t>>(std::move(it->second.values));
    if (auto origin = imported.origins.find(l.name); origin != imported.origins.end()) l.onnx = origin->second;
  }
  w.notes = std::move(imported.notes);
  return w;
}

}  // namespace npusim
