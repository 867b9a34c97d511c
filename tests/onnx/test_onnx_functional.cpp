// ONNX models in functional mode against OnnxReference, a plain op-by-op evaluation of
// the same graph: within the documented quantization bound for float weights, exactly
// equal when every weight is an int8 value times a power of two.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "e2e/NpusimProcess.h"
#include "onnx/OnnxTestGraph.h"
#include "sim/tensor/Npy.h"

namespace {

// A few CNN layers of every supported kind; returns layer name -> ONNX value it writes.
std::map<std::string, std::string> small_cnn(OnnxTestGraph& g, bool batch_norm) {
  std::string x = g.conv("c1", "input", 3, 8, 3, 1, 1);
  if (batch_norm) x = g.batch_norm("bn1", x, 8);
  const std::string r1 = g.unary("Relu", "r1", x);
  const std::string p1 = g.pool("MaxPool", "p1", r1, 2, 2, 0);
  const std::string dw = g.clip6("dw6", g.conv("dw", p1, 8, 8, 3, 1, 1, 8));
  const std::string c2 = g.conv("c2", dw, 8, 8, 1);
  const std::string a = g.unary("Relu", "ar", g.add("a", c2, p1));
  const std::string c3 = g.unary("Relu", "c3r", g.conv("c3", a, 8, 16, 3, 2, 2, 1, 2));
  const std::string ap = g.pool("AveragePool", "ap", c3, 3, 1, 1);
  const std::string gp = g.pool("GlobalAveragePool", "g", ap, 0, 0, 0);
  const std::string fc = g.gemm("fc", g.flatten("f", gp), 16, 10);
  g.output(fc);
  return {{"c1", r1}, {"p1", p1}, {"dw", dw}, {"c2", c2}, {"a", a}, {"c3", c3}, {"ap", ap}, {"g", gp}, {"fc", fc}};
}

// npusim's NHWC int8 tensor as the reference's NCHW (or [n, k]) order.
std::vector<double> nchw(const npusim::NpyArray& a) {
  const auto n = a.shape[0], h = a.shape[1], w = a.shape[2], c = a.shape[3];
  std::vector<double> out(a.data.size());
  for (std::uint64_t b = 0; b < n; ++b)
    for (std::uint64_t y = 0; y < h; ++y)
      for (std::uint64_t x = 0; x < w; ++x)
        for (std::uint64_t k = 0; k < c; ++k)
          out[((b * c + k) * h + y) * w + x] = double(std::int8_t(a.data[((b * h + y) * w + x) * c + k]));
  return out;
}

struct Comparison {
  double max_error = 0, mean_error = 0, mean_bound = 0;
  std::size_t elements = 0, nonzero = 0;
};

// Runs the graph `layers` were built into (layer name -> ONNX value) in functional mode and
// compares every layer with the reference.
Comparison run_and_compare(OnnxTestGraph& g, const std::map<std::string, std::string>& layers, bool exact,
                           const std::string& name) {
  const std::string dir = scratch_dir(name);
  const auto r = run_npusim({"run", "--quiet", "--functional", "--workload", g.save(dir + "/m.onnx"), "--out",
                             dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const npusim::NpyArray input = npusim::read_npy(dir + "/run/tensors/input.npy");
  OnnxTestGraph::Dims dims;
  for (const auto& d : g.model.graph().input(0).type().tensor_type().shape().dim()) dims.push_back(d.dim_value());
  OnnxReference::Value x{dims, nchw(input), std::vector<double>(input.data.size(), 0.0)};
  const OnnxReference ref(g.model, x, exact);
  Comparison c;
  double error_sum = 0, bound_sum = 0;
  for (const auto& [layer, value] : layers) {
    INFO("layer " << layer);
    const auto got = nchw(npusim::read_npy(dir + "/run/tensors/" + layer + ".npy"));
    const auto& want = ref.values.at(value);
    REQUIRE(got.size() == want.v.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double error = std::fabs(got[i] - want.v[i]);
      if (exact)
        REQUIRE(got[i] == want.v[i]);
      else
        REQUIRE(error <= want.bound[i] + 1e-9);
      c.max_error = std::max(c.max_error, error);
      error_sum += error;
      bound_sum += want.bound[i];
      c.nonzero += got[i] != 0;
    }
    c.elements += got.size();
  }
  c.mean_error = error_sum / double(c.elements);
  c.mean_bound = bound_sum / double(c.elements);
  return c;
}

}  // namespace

TEST_CASE("onnx: a small CNN in functional mode equals the float graph within the quantization bound",
          "[onnx][e2e]") {
  OnnxTestGraph g({2, 3, 12, 12});
  const Comparison c = run_and_compare(g, small_cnn(g, true), false, "onnx-float");
  INFO("max error " << c.max_error << ", mean error " << c.mean_error << ", mean bound " << c.mean_bound);
  CHECK(c.nonzero > c.elements / 4);  // not a graph of zeros (ReLUs zero about half)
  CHECK(c.max_error > 0);             // float weights do lose something
  CHECK(c.mean_error < 1.0);          // ... less than one int8 step on average
}

TEST_CASE("onnx: a small CNN whose weights are int8 times 2^-10 is computed exactly", "[onnx][e2e]") {
  OnnxTestGraph g({2, 3, 12, 12});
  g.weight = [](std::mt19937& rng) { return float(std::uniform_int_distribution<int>(-127, 127)(rng)) / 1024.0f; };
  const Comparison c = run_and_compare(g, small_cnn(g, false), true, "onnx-int8");
  CHECK(c.nonzero > c.elements / 4);
  CHECK(c.max_error == 0);
}

TEST_CASE("onnx: an Inception-like block (branches of different widths concatenated) is computed exactly",
          "[onnx][concat][e2e]") {
  OnnxTestGraph g({2, 3, 10, 10});
  g.weight = [](std::mt19937& rng) { return float(std::uniform_int_distribution<int>(-127, 127)(rng)) / 1024.0f; };
  const std::string stem = g.unary("Relu", "stem_r", g.conv("stem", "input", 3, 8, 3, 1, 1));
  const std::string a = g.unary("Relu", "a_r", g.conv("a", stem, 8, 6, 1));
  const std::string b = g.unary("Relu", "b_r", g.conv("b", stem, 8, 10, 3, 1, 1));
  const std::string p = g.pool("MaxPool", "p", stem, 3, 1, 1);
  auto& join = g.node("Concat", "mixed", {a, b, p});
  auto* axis = join.add_attribute();
  axis->set_name("axis"), axis->set_type(onnx::AttributeProto::INT), axis->set_i(1);
  // A Relu after the concat stays a layer of its own (a concat has no fused ReLU).
  const std::string mixed = join.output(0), relu = g.unary("Relu", "mixed_r", mixed);
  const std::string head = g.conv("head", relu, 24, 8, 3, 1, 1);
  g.output(head);
  const Comparison c = run_and_compare(
      g, {{"stem", stem}, {"a", a}, {"b", b}, {"p", p}, {"mixed", mixed}, {"mixed_r", relu}, {"head", head}}, true,
      "onnx-inception");
  CHECK(c.nonzero > c.elements / 4);
  CHECK(c.max_error == 0);
}
