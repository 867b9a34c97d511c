// concat_tokens (docs/workload-format.md, "Tokens: class token"): constant rows in DRAM,
// then the input's positions as rows, moved by the load and store DMAs alone; checked in
// functional mode against a plain reference built from the dumped tensors, and the ONNX
// pattern it comes from (a ViT's class token, then x[:, 0] before the head).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/ReferenceLayers.h"
#include "compiler/FunctionalRun.h"
#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"
#include "onnx/OnnxTestGraph.h"

using namespace npusim::layer_reference;

namespace {

// Image by image: the table's `tokens` rows, then every position of the input.
std::vector<std::int8_t> prepended(const Tensor& table, const Tensor& x, std::uint32_t batch) {
  std::vector<std::int8_t> want;
  const std::size_t per_image = x.v.size() / batch;
  for (std::uint32_t n = 0; n < batch; ++n) {
    want.insert(want.end(), table.v.begin(), table.v.end());
    want.insert(want.end(), x.v.begin() + std::ptrdiff_t(n * per_image), x.v.begin() + std::ptrdiff_t((n + 1) * per_image));
  }
  return want;
}

}  // namespace

TEST_CASE("compiler: concat_tokens writes its constant rows before the input's positions with the DMAs alone",
          "[compiler][tokens][e2e]") {
  std::mt19937 rng(61);
  const std::string dir = scratch_dir("token-concat");
  for (int trial = 0; trial < 3; ++trial) {
    const std::uint32_t h = 1 + rng() % 30, w = 1 + rng() % 5, c = 1 + rng() % 80, batch = 1 + rng() % 3;
    const std::uint32_t tokens = 1 + rng() % 4;
    INFO(fmt::format("trial {}: {}x{}x{} batch {}, {} tokens", trial, h, w, c, batch, tokens));
    const std::string path = dir + fmt::format("/cls{}.json", trial);
    write_text(path, fmt::format(R"({{"batch": {}, "seed": {}, "input": {{"h": {}, "w": {}, "c": {}}}, "layers": [
      {{"name": "cls", "type": "concat_tokens", "tokens": {}}}]}})",
                                 batch, trial + 5, h, w, c, tokens));
    const std::string config = source_path(trial == 1 ? "configs/numa-2x2.json" : "configs/smp-2x2.json");
    const std::string out = dir + fmt::format("/out{}", trial);
    const std::string t = run_functional(path, config, out);
    const Tensor x = load(t + "input.npy"), table = load(t + "cls.weights.npy");
    const Tensor got = load(t + "cls.npy");
    REQUIRE(table.v.size() == std::size_t(tokens) * c);
    CHECK((got.h == tokens + h * w && got.w == 1 && got.c == c));
    CHECK(got.v == prepended(table, x, batch));
  }
}

TEST_CASE("workload: concat_tokens without its token count exits 2 naming the layer", "[compiler][tokens][e2e]") {
  const std::string dir = scratch_dir("token-concat-bad");
  const std::string path = dir + "/bad.json";
  write_text(path, R"({"input": {"h": 3, "w": 1, "c": 4}, "layers": [{"name": "cls", "type": "concat_tokens"}]})");
  const auto r = run_npusim({"run", "--quiet", "--workload", path, "--out", dir + "/out"});
  check_refused(r, {"layers[0] (cls), field 'tokens'"});
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

TEST_CASE("onnx: a class token concatenated before the tokens, then x[:, 0], become concat_tokens and a one-token pool",
          "[onnx][tokens][e2e]") {
  const std::string dir = scratch_dir("onnx-class-token");
  OnnxTestGraph g({1, 6, 16});
  const std::string patches = g.matmul("patch", "input", 16, 16);
  std::vector<float> cls(16);
  for (std::size_t i = 0; i < cls.size(); ++i) cls[i] = 0.25f * float(int(i % 5) - 2);
  auto& joined = g.node("Concat", "cat", {g.initializer("class_token", {1, 1, 16}, cls), patches});
  auto* axis = joined.add_attribute();
  axis->set_name("axis"), axis->set_type(onnx::AttributeProto::INT), axis->set_i(1);
  const std::string x = g.add("pos", joined.output(0), g.initializer("pos_embedding", {1, 7, 16}, std::vector<float>(112, 0.5f)));
  auto& pick = g.node("Gather", "first", {x, g.initializer("zero", {}, {0.0f})});
  auto* zero = g.model.mutable_graph()->mutable_initializer(g.model.graph().initializer_size() - 1);
  zero->set_data_type(onnx::TensorProto::INT64), zero->clear_float_data(), zero->add_int64_data(0);
  auto* pick_axis = pick.add_attribute();
  pick_axis->set_name("axis"), pick_axis->set_type(onnx::AttributeProto::INT), pick_axis->set_i(1);
  g.output(g.gemm("head", pick.output(0), 16, 10));
  const std::string model = g.save(dir + "/vit.onnx");
  const auto r = run_npusim({"run", "--quiet", "--workload", model, "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::ifstream in(dir + "/run/report.json");
  const auto report = nlohmann::json::parse(in);
  std::vector<std::string> kinds;
  for (const auto& row : report["workload"]["rows"]) kinds.push_back(row["kind"]);
  CHECK(kinds == std::vector<std::string>{"fc", "concat_tokens", "add_constant", "pool", "fc"});
  SECTION("a constant after the tokens is refused naming the node") {
    joined.set_input(0, patches), joined.set_input(1, "class_token");
    check_refused(run_npusim({"validate", g.save(dir + "/after.onnx")}), {"node 'cat' (Concat)"});
  }
}
