#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/frontend/workload/Workload.h"
#include "apps/frontend/onnx/OnnxModel.h"
#include "apps/frontend/onnx/OnnxWeights.h"

namespace npusim {

// An ONNX graph translated into npusim's JSON workload format (docs/workload-format.md),
// so the JSON reader resolves and checks every layer as it does for hand-written
// workloads, plus what JSON cannot carry: each weighted layer's quantized weights.
struct OnnxImport {
  nlohmann::json workload;
  std::map<std::string, QuantizedWeights> weights;  // by layer name, npusim's order
  std::vector<std::string> notes;                   // approximations made, for the user
  std::map<std::string, Layer::OnnxOrigin> origins; // by layer name
};

// The op types the importer maps (anything else is an error naming the node).
const std::vector<std::string>& supported_onnx_ops();

// `functional`: the weights will be computed with, so a bias the engines cannot add
// is an error instead of a note.
OnnxImport import_onnx_graph(const OnnxModel& model, bool functional);

}  // namespace npusim
