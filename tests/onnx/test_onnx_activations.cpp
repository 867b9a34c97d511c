// Activations and element-wise products imported from ONNX (docs/workload-format.md,
// "Activations and elementwise"): which layers they become, on which engine, and the
// graphs refused. Their functional comparison with a numpy evaluation of the graph is
// ctest onnx_activations_against_numpy (tests/onnx/activation_graphs.py).
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"
#include "onnx/OnnxTestGraph.h"

namespace {

nlohmann::json run_report(const std::string& model, const std::string& dir) {
  const auto r = run_npusim({"run", "--quiet", "--workload", model, "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::ifstream in(dir + "/run/report.json");
  return nlohmann::json::parse(in);
}

std::string hard_sigmoid(OnnxTestGraph& g, const std::string& name, const std::string& in, float alpha) {
  auto& n = g.node("HardSigmoid", name, {in});
  auto* a = n.add_attribute();
  a->set_name("alpha"), a->set_type(onnx::AttributeProto::FLOAT), a->set_f(alpha);
  return n.output(0);
}

// conv -> SiLU -> depthwise -> hard swish -> squeeze-and-excitation -> 1x1 conv ->
// layer scale -> Tanh, on [1, 16, 14, 14].
OnnxTestGraph mobile_block() {
  OnnxTestGraph g({1, 16, 14, 14});
  std::string x = g.conv("expand", "input", 16, 32, 1);
  x = g.node("Mul", "silu", {x, g.unary("Sigmoid", "silu_gate", x)}).output(0);
  x = g.conv("dw", x, 32, 32, 3, 1, 1, 32);
  x = g.node("Mul", "hswish", {hard_sigmoid(g, "hswish_gate", x, 1.0f / 6), x}).output(0);
  std::string s = g.pool("GlobalAveragePool", "squeeze", x, 0, 0, 0);
  s = g.unary("Relu", "se_relu", g.conv("se_reduce", s, 32, 8, 1));
  s = g.unary("Sigmoid", "se_gate", g.conv("se_expand", s, 8, 32, 1));
  x = g.node("Mul", "excite", {x, s}).output(0);
  x = g.conv("project", x, 32, 16, 1);
  x = g.node("Mul", "layer_scale", {g.initializer("gamma", {16, 1, 1}, std::vector<float>(16, 0.5f)), x}).output(0);
  g.output(g.unary("Tanh", "tanh", x));
  return g;
}

}  // namespace

TEST_CASE("onnx: SiLU, hard swish, a squeeze-and-excitation gate, a layer scale and Tanh become vector layers",
          "[onnx][activation][e2e]") {
  const std::string dir = scratch_dir("onnx-activations");
  const auto report = run_report(mobile_block().save(dir + "/block.onnx"), dir);
  std::vector<std::string> kinds, engines;
  for (const auto& r : report["workload"]["rows"]) {
    kinds.push_back(r["kind"]);
    engines.push_back(r["engine"]);
  }
  const std::vector<std::string> want = {"conv", "silu", "depthwise", "hardswish", "pool", "conv", "conv",
                                         "sigmoid", "mul", "conv", "depthwise", "tanh"};
  CHECK(kinds == want);
  for (std::size_t i = 0; i < kinds.size(); ++i)
    if (kinds[i] != "conv") CHECK(engines[i] == "vector");
  const auto& rows = report["workload"]["rows"];
  CHECK(rows[1]["name"] == "silu");      // the Mul the Sigmoid gates is the layer
  CHECK(rows[7]["onnx"]["scale_exponent"] == -7);
  CHECK(rows[8]["onnx"]["scale_exponent"] == 0);  // map (0) x gate (-7) >> 7
  CHECK(rows[8]["macs"] == 0);
}

TEST_CASE("onnx: activations and products the engines cannot follow exit 2 naming the node",
          "[onnx][activation][e2e]") {
  const std::string dir = scratch_dir("onnx-activations-bad");
  SECTION("a Mul of a map and one channel broadcast over the channels") {
    OnnxTestGraph g({1, 8, 8, 8});
    const std::string one = g.conv("one", "input", 8, 1, 1);
    g.output(g.node("Mul", "odd", {"input", one}).output(0));
    check_refused(run_npusim({"validate", g.save(dir + "/mul.onnx")}), {"node 'odd' (Mul)", "[N, C, 1, 1] gate"});
  }
  SECTION("ONNX's default hard sigmoid slope") {
    OnnxTestGraph g({1, 8, 8, 8});
    g.output(hard_sigmoid(g, "hs", "input", 0.2f));
    check_refused(run_npusim({"validate", g.save(dir + "/hs.onnx")}), {"node 'hs' (HardSigmoid)", "alpha = 1/6"});
  }
  SECTION("a Mul by a constant of the wrong size") {
    OnnxTestGraph g({1, 8, 4, 4});
    g.output(g.node("Mul", "scale", {"input", g.initializer("s", {4, 1}, {1, 2, 3, 4})}).output(0));
    check_refused(run_npusim({"validate", g.save(dir + "/scale.onnx")}), {"node 'scale' (Mul)", "per channel"});
  }
  SECTION("a Sigmoid of an image in functional mode takes fraction bits from its scale") {
    OnnxTestGraph g({1, 8, 4, 4});
    g.output(g.unary("Sigmoid", "s", g.node("Mul", "up", {"input", g.initializer("two", {}, {2.0f})}).output(0)));
    check_refused(run_npusim({"run", "--functional", "--workload", g.save(dir + "/s.onnx"), "--out", dir + "/o"}),
                  {"node 's' (Sigmoid)", "fraction bits"});
  }
}

namespace {

std::string scalar(OnnxTestGraph& g, const std::string& name, float v) { return g.initializer(name, {}, {v}); }

// [1, 8, 16] tokens: a positional Add of a [8, 16] constant, a Where of a constant
// condition, and GELU's tanh form spelled out as GPT-2's NewGELU exports it.
OnnxTestGraph causal_tokens() {
  OnnxTestGraph g({1, 8, 16});
  std::string x = g.add("position", "input", g.initializer("pos", {8, 16}, std::vector<float>(8 * 16, 0.25f)));
  auto& cond = *g.model.mutable_graph()->add_initializer();
  cond.set_name("keep"), cond.set_data_type(onnx::TensorProto::BOOL), cond.add_dims(8), cond.add_dims(16);
  for (int i = 0; i < 8 * 16; ++i) cond.add_int32_data(i % 16 <= i / 16);
  x = g.node("Where", "causal", {"keep", x, scalar(g, "minus_inf", -INFINITY)}).output(0);
  const std::string h = g.matmul("fc", x, 16, 16);
  const std::string cube = g.node("Mul", "cube", {h, g.node("Mul", "square", {h, h}).output(0)}).output(0);
  const std::string kappa = g.node("Mul", "kappa", {scalar(g, "c1", 0.044715f), cube}).output(0);
  const std::string inner = g.node("Mul", "beta", {scalar(g, "c2", 0.7978845608f), g.add("inner", h, kappa)}).output(0);
  const std::string one = g.add("one", scalar(g, "c3", 1.0f), g.unary("Tanh", "tanh", inner));
  g.output(g.node("Mul", "half", {scalar(g, "c4", 0.5f), g.node("Mul", "gate", {h, one}).output(0)}).output(0));
  return g;
}

}  // namespace

TEST_CASE("onnx: a positional Add, a causal Where and GELU's tanh form become add_constant, mask and gelu",
          "[onnx][activation][e2e]") {
  const std::string dir = scratch_dir("onnx-constants");
  const std::string model = causal_tokens().save(dir + "/causal.onnx");
  const auto report = run_report(model, dir);
  std::vector<std::string> kinds;
  for (const auto& r : report["workload"]["rows"]) kinds.push_back(r["kind"]);
  CHECK(kinds == std::vector<std::string>{"add_constant", "mask", "fc", "gelu"});
  CHECK_THAT(run_npusim({"validate", model}).output, Catch::Contains("1 GELUs in the tanh form run as the erf form"));
}

TEST_CASE("onnx: constants the vector unit cannot read exit 2 naming the node", "[onnx][activation][e2e]") {
  const std::string dir = scratch_dir("onnx-constants-bad");
  SECTION("a Where between two activations") {
    OnnxTestGraph g({1, 4, 8});
    auto& cond = *g.model.mutable_graph()->add_initializer();
    cond.set_name("keep"), cond.set_data_type(onnx::TensorProto::BOOL), cond.add_dims(8), cond.add_int32_data(1);
    for (int i = 1; i < 8; ++i) cond.add_int32_data(0);
    g.output(g.node("Where", "w", {"keep", "input", g.unary("Relu", "r", "input")}).output(0));
    check_refused(run_npusim({"validate", g.save(dir + "/where.onnx")}), {"node 'w' (Where)", "one constant number"});
  }
  SECTION("an Add of a constant that differs between the images of the batch") {
    OnnxTestGraph g({2, 4, 8});
    std::vector<float> per_image(2 * 4 * 8, 0.0f);
    per_image.back() = 1.0f;
    g.output(g.add("odd", "input", g.initializer("c", {2, 4, 8}, per_image)));
    check_refused(run_npusim({"validate", g.save(dir + "/batch.onnx")}), {"node 'odd' (Add)", "images of the batch"});
  }
}

TEST_CASE("onnx: a Gather of an embedding table by int64 token ids becomes an embedding moved by the DMAs",
          "[onnx][activation][e2e]") {
  const std::string dir = scratch_dir("onnx-embedding");
  OnnxTestGraph g({1, 8});
  g.model.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::INT64);
  const std::string table = g.initializer("table", {50, 16}, std::vector<float>(50 * 16, 0.5f));
  const std::string x = g.node("Gather", "token", {table, "input"}).output(0);
  g.output(g.add("position", x, g.initializer("pos", {8, 16}, std::vector<float>(8 * 16, 0.25f))));
  const auto report = run_report(g.save(dir + "/emb.onnx"), dir);
  const auto& rows = report["workload"]["rows"];
  REQUIRE(rows.size() == 2);
  CHECK(rows[0]["kind"] == "embedding");
  CHECK(rows[0]["engine"] == "dma");
  CHECK(rows[1]["kind"] == "add_constant");
  SECTION("a Gather of the table's columns") {
    OnnxTestGraph f({1, 8});
    f.model.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
        onnx::TensorProto::INT64);
    const std::string t = f.initializer("table", {50, 16}, std::vector<float>(50 * 16, 0.5f));
    auto& gather = f.node("Gather", "bad", {t, "input"});
    auto* axis = gather.add_attribute();
    axis->set_name("axis"), axis->set_type(onnx::AttributeProto::INT), axis->set_i(1);
    f.output(gather.output(0));
    check_refused(run_npusim({"validate", f.save(dir + "/bad.onnx")}), {"node 'bad' (Gather)", "token-id graph input"});
  }
}

TEST_CASE("onnx: a token-type Add on the input and BERT's pooler become add_constant, a one-token pool, fc and tanh",
          "[onnx][activation][e2e]") {
  const std::string dir = scratch_dir("onnx-pooler");
  OnnxTestGraph g({1, 8, 16});
  std::string x = g.add("token_type", "input", g.initializer("segment", {16}, std::vector<float>(16, 0.25f)));
  auto& pick = g.node("Gather", "first", {x, g.initializer("zero", {}, {0.0f})});
  g.model.mutable_graph()->mutable_initializer(1)->set_data_type(onnx::TensorProto::INT64);
  g.model.mutable_graph()->mutable_initializer(1)->clear_float_data();
  g.model.mutable_graph()->mutable_initializer(1)->add_int64_data(0);
  auto* axis = pick.add_attribute();
  axis->set_name("axis"), axis->set_type(onnx::AttributeProto::INT), axis->set_i(1);
  g.output(g.unary("Tanh", "pooler", g.gemm("pooler_fc", pick.output(0), 16, 16)));
  const auto report = run_report(g.save(dir + "/pooler.onnx"), dir);
  std::vector<std::string> kinds;
  for (const auto& r : report["workload"]["rows"]) kinds.push_back(r["kind"]);
  CHECK(kinds == std::vector<std::string>{"add_constant", "pool", "fc", "tanh"});
}

TEST_CASE("onnx: GELU's tanh form opened by Pow(x, 3), with x halved first, is one gelu layer", "[onnx][activation][e2e]") {
  const std::string dir = scratch_dir("onnx-gelu-pow");
  OnnxTestGraph g({1, 8, 16});
  const std::string h = g.matmul("fc", "input", 16, 16);
  const std::string cube = g.node("Pow", "cube", {h, scalar(g, "three", 3.0f)}).output(0);
  const std::string inner = g.add("inner", g.node("Mul", "kappa", {cube, scalar(g, "c1", 0.044715f)}).output(0), h);
  const std::string t = g.unary("Tanh", "tanh", g.node("Mul", "beta", {inner, scalar(g, "c2", 0.7978845608f)}).output(0));
  const std::string half = g.node("Mul", "half", {h, scalar(g, "c3", 0.5f)}).output(0);
  g.output(g.node("Mul", "gelu", {half, g.add("one", t, scalar(g, "c4", 1.0f))}).output(0));
  const auto report = run_report(g.save(dir + "/gelu.onnx"), dir);
  std::vector<std::string> kinds;
  for (const auto& r : report["workload"]["rows"]) kinds.push_back(r["kind"]);
  CHECK(kinds == std::vector<std::string>{"fc", "gelu"});
  SECTION("a chain that is not GELU (another constant) stays refused") {
    for (auto& init : *g.model.mutable_graph()->mutable_initializer())
      if (init.name() == "c1") init.set_float_data(0, 0.5f);  // x^3 weighs 0.5, not 0.044715
    check_refused(run_npusim({"validate", g.save(dir + "/not_gelu.onnx")}), {"node 'cube' (Pow)"});
  }
}
