#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace npusim {

// What a reader needs beyond the file: only ONNX models use it.
struct WorkloadOptions {
  std::map<std::string, std::vector<std::int64_t>> input_shapes;  // --input-shape name=1x3x224x224
  bool functional = false;  // the weights will be computed with (ONNX: a bias is then an error)
  // ONNX value -> the exponent calibration chose for it (docs/workload-format.md, "Calibrated
  // scales"); empty: the fixed rules.
  std::map<std::string, int> calibrated_exponents;
};

// "--input-shape data=1x3x224x224" -> {"data", {1, 3, 224, 224}}; InputError otherwise.
std::pair<std::string, std::vector<std::int64_t>> parse_input_shape(const std::string& text);

}  // namespace npusim
