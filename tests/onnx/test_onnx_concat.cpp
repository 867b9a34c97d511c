// ONNX Concat: along the channels of maps or token matrices it becomes a concat layer
// (its functional comparison is in test_onnx_functional.cpp); every other Concat exits 2
// naming the node.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"
#include "onnx/OnnxTestGraph.h"

namespace {

std::string concat(OnnxTestGraph& g, const std::string& name, const std::vector<std::string>& inputs,
                   std::int64_t axis) {
  auto& n = g.node("Concat", name, inputs);
  auto* a = n.add_attribute();
  a->set_name("axis"), a->set_type(onnx::AttributeProto::INT), a->set_i(axis);
  return n.output(0);
}

}  // namespace

TEST_CASE("onnx: a Concat of token matrices along their features is a concat layer", "[onnx][concat][e2e]") {
  const std::string dir = scratch_dir("onnx-concat-rows");
  OnnxTestGraph g({2, 6, 8});
  const std::string joined = concat(g, "join", {g.matmul("left", "input", 8, 6), g.matmul("right", "input", 8, 10)}, -1);
  g.output(g.matmul("proj", joined, 16, 4));
  const auto r = run_npusim({"run", "--quiet", "--workload", g.save(dir + "/m.onnx"), "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto rows = nlohmann::json::parse(read_text(dir + "/run/report.json"))["workload"]["rows"];
  std::vector<std::string> kinds;
  for (const auto& row : rows) kinds.push_back(row["kind"]);
  CHECK(kinds == std::vector<std::string>{"fc", "fc", "concat", "fc"});
  CHECK(rows[2]["name"] == "join");
  CHECK(rows[2]["engine"] == "dma");
  CHECK(rows[2]["onnx"]["scale_exponent"] == -5);  // the token sequence's, kept
  CHECK(rows[3]["macs"] == 2 * 6 * 16 * 4);        // proj reads all 16 features
}

TEST_CASE("onnx: a Concat the concat layer cannot express exits 2 naming the node", "[onnx][concat][e2e]") {
  const std::string dir = scratch_dir("onnx-concat-bad");
  SECTION("along the positions of a token matrix (a class token)") {
    OnnxTestGraph g({1, 4, 8});
    g.output(concat(g, "tokens", {"input", "input"}, 1));
    check_refused(run_npusim({"validate", g.save(dir + "/tokens.onnx")}),
                  {"node 'tokens' (Concat)", "axis 1 of [1, 4, 8]", "joins channels only", "class token"});
  }
  SECTION("along the rows of a map") {
    OnnxTestGraph g({1, 3, 8, 8});
    g.output(concat(g, "rows", {g.conv("c", "input", 3, 3, 1), "input"}, 2));
    check_refused(run_npusim({"validate", g.save(dir + "/rows.onnx")}), {"node 'rows' (Concat)", "joins channels only"});
  }
  SECTION("with a constant input") {
    OnnxTestGraph g({1, 4, 8});
    g.initializer("cls", {1, 4, 8}, std::vector<float>(32, 0.5f));
    g.output(concat(g, "with_cls", {"input", "cls"}, 2));
    check_refused(run_npusim({"validate", g.save(dir + "/constant.onnx")}),
                  {"node 'with_cls' (Concat)", "input 1 ('cls') is a constant"});
  }
  SECTION("of inputs with different scales, in functional mode") {
    OnnxTestGraph g({1, 3, 8, 8});
    g.initializer("two", {}, {2.0f});
    g.output(concat(g, "mixed", {"input", g.node("Mul", "twice", {"input", "two"}).output(0)}, 1));
    const std::string model = g.save(dir + "/scales.onnx");
    check_refused(run_npusim({"run", "--functional", "--workload", model, "--out", dir + "/run"}),
                  {"node 'mixed' (Concat)", "the difference of the inputs' scale exponents"});
    const auto timing = run_npusim({"validate", model});  // timing: noted, values are not computed
    INFO(timing.output);
    CHECK(timing.status == 0);
  }
}
