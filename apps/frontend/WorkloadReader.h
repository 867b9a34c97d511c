#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "apps/frontend/workload/Workload.h"

namespace npusim {

// What a reader needs beyond the file: only ONNX models use it.
struct WorkloadOptions {
  std::map<std::string, std::vector<std::int64_t>> input_shapes;  // --input-shape name=1x3x224x224
  bool functional = false;  // the weights will be computed with (ONNX: a bias is then an error)
};

// Reads a workload: JSON (docs/workload-format.md), for files ending in .csv a
// SCALE-Sim layer table, or an ONNX model (.onnx, or a file that starts like one).
// Every layer's shapes are resolved and checked; any problem throws InputError naming
// the file, the layer (CSV line, ONNX node) and the reason.
Workload read_workload(const std::string& path, const WorkloadOptions& options = {});
Workload parse_workload_json(const std::string& text, const std::string& path);
Workload parse_scale_sim_csv(const std::string& text, const std::string& path);

// A layer name made of letters, digits, '_', '-' and '.' from any text (others become '_').
std::string sanitized_layer_name(std::string text);

// "--input-shape data=1x3x224x224" -> {"data", {1, 3, 224, 224}}; InputError otherwise.
std::pair<std::string, std::vector<std::int64_t>> parse_input_shape(const std::string& text);

}  // namespace npusim
