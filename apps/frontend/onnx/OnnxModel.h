#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace npusim {

// Values given on the command line for dynamic input dimensions (--input-shape).
using InputShapes = std::map<std::string, std::vector<std::int64_t>>;

// The opsets whose operator definitions the importer follows (ONNX 1.12 knows up to 17).
constexpr std::int64_t kMinOnnxOpset = 11;
constexpr std::int64_t kMaxOnnxOpset = 17;

// An ONNX model checked and with every shape inferred by the onnx library: the graph,
// its constants (initializers and Constant nodes) and the shape of every value.
// Not copied or moved: `constants` points into it.
struct OnnxModel {
  OnnxModel() = default;
  OnnxModel(const OnnxModel&) = delete;
  OnnxModel& operator=(const OnnxModel&) = delete;

  std::string file;
  onnx::ModelProto proto;
  std::int64_t opset = 0;
  std::string input;  // the one graph input that is not a constant
  std::map<std::string, const onnx::TensorProto*> constants;  // also Identity outputs of constants
  std::map<std::string, std::vector<std::int64_t>> shapes;
  std::deque<onnx::TensorProto> constant_nodes;  // owns what Constant nodes hold

  const onnx::GraphProto& graph() const { return proto.graph(); }
  const onnx::TensorProto* constant(const std::string& name) const;
  // The inferred shape of a value; fails naming `node` when it is unknown.
  const std::vector<std::int64_t>& shape(const std::string& value, const onnx::NodeProto& node) const;
  [[noreturn]] void fail(const onnx::NodeProto& node, const std::string& reason) const;
};

// "node 'conv1' (Conv)", or "node #3 (Conv)" when the node has no name.
std::string node_place(const onnx::NodeProto& node);

// Parses the file, checks (onnx::checker), fixes dynamic input dimensions from `given` and
// infers shapes (onnx::shape_inference). Throws InputError naming the file.
std::unique_ptr<OnnxModel> load_onnx_model(const std::string& path, const InputShapes& given);
// Runs the onnx library's shape inference on `m.proto` and records every known shape.
void infer_shapes(OnnxModel& m);

}  // namespace npusim
