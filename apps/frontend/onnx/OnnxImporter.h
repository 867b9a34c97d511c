#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "apps/frontend/workload/Workload.h"
#include "apps/frontend/onnx/OnnxModel.h"
#include "apps/frontend/onnx/OnnxWeights.h"

namespace npusim {

// A layer as the graph gives it, before the checks every reader shares
// (apps/frontend/workload/LayerChecks.h) resolve its shapes: the numbers ONNX
// attributes give stay as written (int64) until those checks take them.
struct OnnxLayer {
  Layer layer;  // name, kind, inputs, relu, pool_max, transpose_b
  std::array<std::int64_t, 2> kernel{1, 1}, strides{1, 1};  // window layers: [h, w]
  std::array<std::int64_t, 4> pads{0, 0, 0, 0};             // top, bottom, left, right
  std::int64_t dilation = 1;
  std::int64_t groups = 1;
  std::int64_t channels = 0;  // conv: co; fc: n
  std::int64_t heads = 1;     // matmul, softmax
  bool global = false;        // a pool over the whole map
  std::vector<std::uint32_t> gathered;  // gather_channels: the input channel of each output channel
  std::optional<std::int64_t> shift, frac_bits;
};

// An ONNX graph translated into npusim's layers (docs/workload-format.md); the
// workload reader resolves and checks them as it does the layers of hand-written
// workloads. Each weighted layer also carries its quantized weights.
struct OnnxImport {
  std::string name;  // the graph's
  std::uint32_t batch = 1;
  MapShape input;
  std::vector<OnnxLayer> layers;
  std::map<std::string, QuantizedWeights> weights;  // by layer name, npusim's order
  std::vector<std::string> notes;                   // approximations made, for the user
  std::map<std::string, Layer::OnnxOrigin> origins; // by layer name
};

// The scale exponent of a graph input of `rank` dims: 0 for images and vectors (one int8
// step = 1), kSequenceInputExponent for token sequences.
int onnx_input_exponent(std::size_t rank);

// The op types the importer maps (anything else is an error naming the node).
const std::vector<std::string>& supported_onnx_ops();

// `functional`: the weights will be computed with, so a bias the engines cannot add
// is an error instead of a note. `calibrated`: ONNX value -> the exponent a calibration
// chose for a weighted layer's output (empty: the fixed rules).
OnnxImport import_onnx_graph(const OnnxModel& model, bool functional,
                             const std::map<std::string, int>& calibrated = {});

}  // namespace npusim
