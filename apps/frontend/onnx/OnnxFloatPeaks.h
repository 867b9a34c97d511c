#pragma once
#include <map>
#include <string>
#include <vector>

#include "apps/frontend/onnx/OnnxModel.h"

namespace npusim {

// The float evaluation behind calibrated scales (docs/workload-format.md, "Calibrated
// scales"): the graph op by op in float64, NCHW, as the ONNX operator definitions say,
// on one input (its values in the graph input's order). Raises `peaks` (value -> max
// |value|) for every value the graph computes. An op it does not evaluate is an
// InputError naming the node: such a model runs with the fixed rules, without --calibrate.
void raise_float_peaks(const OnnxModel& model, const std::vector<double>& input, std::map<std::string, double>& peaks);

}  // namespace npusim
