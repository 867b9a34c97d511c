#pragma once
#include <string>

#include "apps/frontend/onnx/OnnxCalibration.h"
#include "apps/frontend/workload/Workload.h"
#include "apps/frontend/workload/WorkloadOptions.h"

namespace npusim {

// True for a file ending in .onnx or starting like a serialized ONNX ModelProto.
bool looks_like_onnx(const std::string& path, const std::string& bytes);

// An ONNX model as a workload: loaded and shape-inferred by the onnx library,
// translated node by node into layers that the checks every workload reader shares
// resolve; weighted layers carry their quantized initializers (docs/workload-format.md, ONNX).
// The file is parsed where it lies, never read whole first.
Workload read_onnx_workload(const std::string& path, const WorkloadOptions& options);

// Calibrated scales (docs/workload-format.md, "Calibrated scales"): `count` seeded random
// inputs (uniform over the input's int8 range) through the float evaluation of the graph;
// each tensor's exponent from its group's largest |value|. Pass `exponents` back as
// WorkloadOptions::calibrated_exponents to import with them.
Calibration calibrate_onnx_workload(const std::string& path, const WorkloadOptions& options, int count,
                                    std::uint64_t seed);

}  // namespace npusim
