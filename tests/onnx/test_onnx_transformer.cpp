// Transformer graphs as PyTorch exports them (scripts/export_onnx.py; the fixtures in
// tests/onnx/data were made by it). Their functional comparison with a numpy evaluation
// of the graph is tests/onnx/onnx_reference.py (ctest onnx_transformer_against_numpy).
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"
#include "onnx/OnnxTestGraph.h"
#include "TestPaths.h"

namespace {

nlohmann::json run_report(const std::string& model, const std::string& dir) {
  const auto r = run_npusim({"run", "--quiet", "--workload", model, "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::ifstream in(dir + "/run/report.json");
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("onnx: a ViT exported by PyTorch runs as patch conv, two encoder blocks and a head", "[onnx][e2e]") {
  // vit_tiny: 32x32 image, 8x8 patches (16 tokens), width 32, 2 heads, MLP 64, 10 classes.
  const auto report = run_report(std::string(NPUSIM_TEST_DIR) + "/onnx/data/vit_tiny.onnx", scratch_dir("onnx-vit"));
  const auto& rows = report["workload"]["rows"];
  std::vector<std::string> kinds;
  std::uint64_t macs = 0;
  for (const auto& r : rows) {
    kinds.push_back(r["kind"]);
    macs += r["macs"].get<std::uint64_t>();
    const std::string kind = r["kind"];
    if (kind == "matmul" || kind == "fc" || kind == "conv") CHECK(r["engine"] == "matrix");
    if (kind == "softmax" || kind == "layernorm" || kind == "gelu") CHECK(r["engine"] == "vector");
  }
  const std::vector<std::string> block = {"layernorm", "fc", "fc", "fc", "matmul", "softmax", "matmul", "fc",
                                          "add", "layernorm", "fc", "gelu", "fc", "add"};
  std::vector<std::string> want = {"conv"};
  for (int b = 0; b < 2; ++b) want.insert(want.end(), block.begin(), block.end());
  for (const char* k : {"layernorm", "pool", "fc"}) want.push_back(k);
  CHECK(kinds == want);
  const std::uint64_t tokens = 16, d = 32, heads = 2, mlp = 64;
  const std::uint64_t per_block = tokens * d * 3 * d + 2 * heads * tokens * tokens * (d / heads) + tokens * d * d +
                                  2 * tokens * d * mlp;
  CHECK(macs == tokens * d * 3 * 8 * 8 + 2 * per_block + d * 10);
  // Attention's heads are channel segments: Q·Kᵀ is one matmul of 2 heads, not a copy.
  CHECK(rows[5]["onnx"]["scale_exponent"] == -3);
  CHECK(rows[6]["onnx"]["scale_exponent"] == -7);
}

TEST_CASE("onnx: transformer ops the engines cannot follow exit 2 naming the node", "[onnx][e2e]") {
  const std::string dir = scratch_dir("onnx-transformer-bad");
  SECTION("a Concat of activations along the tokens") {
    OnnxTestGraph g({1, 4, 8});
    g.output(g.node("Concat", "join", {"input", "input"}).output(0));
    auto& n = *g.model.mutable_graph()->mutable_node(g.model.graph().node_size() - 1);
    auto* a = n.add_attribute();
    a->set_name("axis"), a->set_type(onnx::AttributeProto::INT), a->set_i(1);
    check_refused(run_npusim({"validate", g.save(dir + "/concat.onnx")}), {"node 'join' (Concat)", "joins channels only"});
  }
  SECTION("a product of two activations of different shapes") {
    OnnxTestGraph g({1, 4, 8});
    g.output(g.node("Mul", "outer", {"input", g.node("Transpose", "t", {"input"}).output(0)}).output(0));
    check_refused(run_npusim({"validate", g.save(dir + "/mul.onnx")}), {"node 'outer' (Mul)", "of one shape"});
  }
  SECTION("attention scaled by 1/3 in functional mode") {
    OnnxTestGraph g({1, 4, 8});
    g.initializer("three", {}, {3.0f});
    const std::string scores = g.node("MatMul", "scores", {"input", g.node("Transpose", "kt", {"input"}).output(0)}).output(0);
    auto& t = *g.model.mutable_graph()->mutable_node(0);
    auto* perm = t.add_attribute();
    perm->set_name("perm"), perm->set_type(onnx::AttributeProto::INTS);
    for (int p : {0, 2, 1}) perm->add_ints(p);
    g.output(g.node("Softmax", "probs", {g.node("Div", "scale", {scores, "three"}).output(0)}).output(0));
    const std::string model = g.save(dir + "/scale.onnx");
    check_refused(run_npusim({"run", "--functional", "--workload", model, "--out", dir + "/run"}),
                  {"node 'scale' (Div)", "not a power of two"});
    const auto timing = run_npusim({"validate", model});  // timing: the nearest power of two, with a note
    INFO(timing.output);
    CHECK(timing.status == 0);
    CHECK(timing.output.find("not a power of two") != std::string::npos);
  }
}
