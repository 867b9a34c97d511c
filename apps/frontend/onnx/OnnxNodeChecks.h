#pragma once
#include <optional>

#include "apps/frontend/onnx/OnnxModel.h"

namespace npusim {

// Checks run before the onnx library infers shapes. libonnx 1.12's shape inference
// reads out of bounds when a Conv or pool node's input rank disagrees with its
// attributes (a fuzz finding), or an axis, perm, Reshape target or index a node carries
// lies outside what its input has (issue 42), so every node must be an op npusim maps,
// every window node must see a rank-4 input and 2-D attributes, and every node's axes,
// perm and shape constants must fit its input's rank; ranks are followed through the
// graph from its inputs and constants, for every op the importer takes.
void check_nodes_before_inference(const OnnxModel& m);

// The attributes and constant inputs of `node` that the library's shape inference reads
// (OnnxArgumentChecks.cpp): axes inside `input_rank` (when known), a Transpose's perm a
// permutation, a Reshape's target well formed, no empty constant where a value is read.
void check_node_arguments(const OnnxModel& m, const onnx::NodeProto& node, std::optional<int> input_rank);

// Fails naming `node` unless its op type is one the importer maps.
void require_supported_op(const OnnxModel& m, const onnx::NodeProto& node);

}  // namespace npusim
