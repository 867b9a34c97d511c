#pragma once
#include "apps/frontend/onnx/OnnxModel.h"

namespace npusim {

// Checks run before the onnx library infers shapes. libonnx 1.12's shape inference
// reads out of bounds when a Conv or pool node's input rank disagrees with its
// attributes (a fuzz finding), so every node must be an op npusim maps, and every
// window node must see a rank-4 input and 2-D attributes; ranks are followed through
// the graph from its inputs and constants.
void check_nodes_before_inference(const OnnxModel& m);

// Fails naming `node` unless its op type is one the importer maps.
void require_supported_op(const OnnxModel& m, const onnx::NodeProto& node);

}  // namespace npusim
