// ONNX models in functional mode against OnnxReference, a plain op-by-op evaluation of
// the same graph: within the documented quantization bound for float weights, exactly
// equal when every weight is an int8 value times a power of two.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "e2e/NpusimProcess.h"
#include "onnx/OnnxComparison.h"
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
