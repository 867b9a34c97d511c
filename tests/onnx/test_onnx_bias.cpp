// Biases in the requantization (issue 34): conv, depthwise, Gemm and MatMul + Add biases and
// the shift of a folded BatchNormalization are added to the int32 accumulator before the
// shift, in functional mode, and compared with OnnxReference (the float graph with the bias);
// a bias the importer cannot attach to a layer is still refused in functional mode.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "e2e/NpusimProcess.h"
#include "onnx/OnnxComparison.h"
#include "onnx/OnnxTestGraph.h"
#include "sim/tensor/Npy.h"

namespace {

// Runs `g` in functional mode; every layer (name -> ONNX value) within the reference's bound.
// Returns the largest error in int8 steps.
double largest_error(OnnxTestGraph& g, const std::map<std::string, std::string>& layers, const std::string& name) {
  const std::string dir = scratch_dir(name);
  const auto r = run_npusim({"run", "--quiet", "--functional", "--workload", g.save(dir + "/m.onnx"), "--out",
                             dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const npusim::NpyArray input = npusim::read_npy(dir + "/run/tensors/input.npy");
  OnnxTestGraph::Dims dims;
  for (const auto& d : g.model.graph().input(0).type().tensor_type().shape().dim()) dims.push_back(d.dim_value());
  const OnnxReference ref(g.model, {dims, nchw(input), std::vector<double>(input.data.size(), 0.0)}, false);
  double largest = 0;
  for (const auto& [layer, value] : layers) {
    INFO("layer " << layer);
    const auto got = nchw(npusim::read_npy(dir + "/run/tensors/" + layer + ".npy"));
    const auto& want = ref.values.at(value);
    REQUIRE(got.size() == want.v.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      INFO("element " << i << ": npusim " << got[i] << ", reference " << want.v[i] << " +- " << want.bound[i]);
      REQUIRE(std::fabs(got[i] - want.v[i]) <= want.bound[i] + 1e-9);
      largest = std::max(largest, std::fabs(got[i] - want.v[i]));
    }
  }
  return largest;
}

// Biases of several int8 steps: leaving one out would miss the reference by more than its bound.
float step_bias(std::mt19937& rng) { return std::uniform_real_distribution<float>(-6.0f, 6.0f)(rng); }

}  // namespace

TEST_CASE("onnx bias: conv, folded BatchNormalization, depthwise and Gemm biases in functional mode match the "
          "float graph", "[onnx][bias][e2e]") {
  OnnxTestGraph g({1, 3, 10, 10});
  g.bias = step_bias;
  const std::string c1 = g.unary("Relu", "r1", g.batch_norm("bn1", g.conv("c1", "input", 3, 8, 3, 1, 1), 8));
  const std::string dw = g.conv("dw", c1, 8, 8, 3, 1, 1, 8);
  const std::string c2 = g.conv("c2", dw, 8, 16, 1);
  const std::string fc = g.gemm("fc", g.flatten("f", g.pool("GlobalAveragePool", "gp", c2, 0, 0, 0)), 16, 10);
  g.output(fc);
  const double largest = largest_error(g, {{"c1", c1}, {"dw", dw}, {"c2", c2}, {"fc", fc}}, "onnx-bias-cnn");
  CHECK(largest <= 2.0);
}

// A Linear exported as MatMul then Add (its bias joins the MatMul's requantization) is checked
// layer by layer in each layer's own scale by ctest onnx_transformer_with_biases_against_numpy
// (tests/onnx/data/tiny_transformer_bias.onnx): OnnxReference compares in steps of 1, and rows
// fed straight from the network input get a finer scale than that.

TEST_CASE("onnx bias: a bias Add on a value its layer also hands elsewhere is refused in functional mode",
          "[onnx][bias][bad-input]") {
  OnnxTestGraph g({1, 8, 16});
  const std::string p = g.matmul("p", "input", 16, 16);
  const std::string biased = g.node("Add", "b", {p, g.initializer("b.v", {16}, std::vector<float>(16, 1.0f))}).output(0);
  g.output(g.add("both", biased, p));
  const std::string dir = scratch_dir("onnx-bias-shared");
  const auto r = run_npusim({"run", "--functional", "--workload", g.save(dir + "/m.onnx"), "--out", dir + "/run"});
  CHECK(r.status == 2);
  CHECK(r.output.find("node 'b' (Add)") != std::string::npos);
  CHECK(r.output.find("no requantization can add") != std::string::npos);
}

TEST_CASE("onnx bias: the cycle-stepped matrix model, the shader core and split partial sums add the same biases",
          "[onnx][bias][e2e]") {
  // tiny_cnn_bias.onnx: every layer biased; its default run is checked against numpy by
  // ctest onnx_cnn_with_biases_against_numpy, so equal tensors here are right there too.
  const std::string model = source_path("tests/onnx/data/tiny_cnn_bias.onnx");
  const std::string dir = scratch_dir("onnx-bias-engines");
  auto tensors = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = {"run", "--quiet", "--functional", "--workload", model, "--out", dir + "/" + name};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_npusim(args);
    INFO(r.output);
    REQUIRE(r.status == 0);
    std::map<std::string, std::vector<std::uint8_t>> out;
    for (const char* layer : {"stem_stem.0", "depthwise_depthwise.0", "pointwise_pointwise.0", "Add", "head"})
      out[layer] = npusim::read_npy(dir + "/" + name + "/tensors/" + layer + ".npy").data;
    return out;
  };
  const auto reference = tensors("fast", {});
  CHECK(tensors("stepped", {"--matrix-model", "cycle-stepped"}) == reference);
  CHECK(tensors("shader", {"--config", source_path("configs/gpu-shader.json")}) == reference);
  CHECK(tensors("model-ci", {"--config", source_path("configs/smp-4x4.json"), "--split", "model-ci"}) == reference);
}
