#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

// Builds small ONNX models in a test with the onnx library itself (no Python in CI).
// Node names are given by the test and become the layer names. Weights are float
// initializers drawn by `weight`.
class OnnxTestGraph {
 public:
  using Dims = std::vector<std::int64_t>;
  // Draws one weight value; the default is uniform in [-1/16, 1/16].
  std::function<float(std::mt19937&)> weight;
  // When set, draws a bias per output channel for every conv and Gemm, a bias Add after every
  // MatMul, and a BatchNormalization's mean and beta; unset (the default), there are none.
  std::function<float(std::mt19937&)> bias;

  explicit OnnxTestGraph(Dims input, std::int64_t opset = 17, const std::string& input_name = "input");

  std::string conv(const std::string& name, const std::string& in, std::int64_t ci, std::int64_t co, std::int64_t k,
                   std::int64_t stride = 1, std::int64_t pad = 0, std::int64_t group = 1, std::int64_t dilation = 1);
  std::string batch_norm(const std::string& name, const std::string& in, std::int64_t c);
  std::string unary(const std::string& op, const std::string& name, const std::string& in);
  std::string clip6(const std::string& name, const std::string& in);
  std::string add(const std::string& name, const std::string& a, const std::string& b);
  std::string pool(const std::string& op, const std::string& name, const std::string& in, std::int64_t k,
                   std::int64_t stride, std::int64_t pad);
  std::string flatten(const std::string& name, const std::string& in);
  std::string gemm(const std::string& name, const std::string& in, std::int64_t k, std::int64_t n);
  std::string matmul(const std::string& name, const std::string& in, std::int64_t k, std::int64_t n);
  // Any node, for ops the helpers above do not cover.
  onnx::NodeProto& node(const std::string& op, const std::string& name, const std::vector<std::string>& inputs);
  std::string initializer(const std::string& name, const Dims& dims, const std::vector<float>& values);
  void output(const std::string& value);

  onnx::ModelProto model;
  std::string save(const std::string& path) const;  // returns path

 private:
  std::vector<float> draw(std::int64_t count);
  std::vector<float> draw_bias(std::int64_t count);
  void ints(onnx::NodeProto& n, const char* name, const Dims& values);
  std::mt19937 rng_{7};
};

// Evaluates a model op by op in float, NCHW, the way ONNX defines the ops, for the
// functional comparisons. `int8`: every op's result is rounded half up and saturated
// to int8 (the documented semantics of npusim's int8 tensors). Alongside each value it
// keeps a bound on how far npusim's int8 result may lie from it
// (docs/workload-format.md, ONNX quantization).
struct OnnxReference {
  struct Value {
    OnnxTestGraph::Dims dims;
    std::vector<double> v, bound;
  };
  OnnxReference(const onnx::ModelProto& model, Value input, bool int8);
  std::map<std::string, Value> values;
};
