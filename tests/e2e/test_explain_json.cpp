// `npusim explain --format json` (issue 35, for the Python API): the engine that explained the
// layer, the layer as read and the very text `explain` prints, in one JSON object.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

namespace {

nlohmann::json explain_json(std::vector<std::string> args) {
  args.insert(args.begin(), "explain");
  args.insert(args.end(), {"--format", "json"});
  const NpusimResult r = run_npusim(args);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.output);
}

std::string explain_text(std::vector<std::string> args) {
  args.insert(args.begin(), "explain");
  const NpusimResult r = run_npusim(args);
  REQUIRE(r.status == 0);
  return r.output;
}

}  // namespace

TEST_CASE("explain --format json: the engine the compiler would choose, and the same text", "[e2e][explain]") {
  struct Case {
    std::vector<std::string> args;
    std::string engine;
  };
  const std::vector<Case> cases = {
      {{"--layer", "hi=56,wi=56,ci=64,co=64,k=3,pad=1"}, "matrix"},
      {{"--config", source_path("configs/gpu-shader.json"), "--layer", "hi=5,wi=5,ci=3,co=2,k=3"}, "shader"},
      {{"--config", source_path("configs/sparse.json"), "--layer", "hi=56,wi=56,ci=64,co=64,k=3,pad=1",
        "--sparsity", "ifm=0.5,weights=0.8"}, "sparse"},
      {{"--config", source_path("configs/sparse.json"), "--layer", "hi=14,wi=14,ci=64,co=64,k=3,pad=1"}, "matrix"},
      {{"--config", source_path("configs/sparse.json"), "--layer", "hi=14,wi=14,ci=64,co=64,k=3,pad=1",
        "--sparsity", "ifm=0.5,weights=0.8", "--engine", "matrix"}, "matrix"},
  };
  for (const Case& c : cases) {
    INFO(c.args[1] << " " << c.args.back());
    const nlohmann::json j = explain_json(c.args);
    CHECK(j.at("engine") == c.engine);
    CHECK(j.at("notes").get<std::string>() + j.at("explanation").get<std::string>() == explain_text(c.args));
  }
}

TEST_CASE("explain --format json: the layer as read, defaults and output size filled in", "[e2e][explain]") {
  const nlohmann::json layer =
      explain_json({"--layer", "hi=57,wi=30,ci=16,co=32,kh=3,kw=5,stride=2,pad=1,2,0,3"}).at("layer");
  CHECK(layer.at("n") == 1);
  CHECK(layer.at("element_bytes") == 1);
  CHECK((layer.at("kh") == 3 && layer.at("kw") == 5 && layer.at("sh") == 2 && layer.at("sw") == 2));
  CHECK(layer.at("pad") == nlohmann::json({1, 2, 0, 3}));
  CHECK(layer.at("ho") == (57 + 1 + 2 - 3) / 2 + 1);  // floor((padded - kernel) / stride) + 1
  CHECK(layer.at("wo") == (30 + 0 + 3 - 5) / 2 + 1);
}

TEST_CASE("explain --format json: bad input is still one line and exit 2", "[e2e][explain]") {
  const NpusimResult bad = run_npusim({"explain", "--layer", "hi=5,wi=5,ci=3,co=0,k=3", "--format", "json"});
  const NpusimResult text = run_npusim({"explain", "--layer", "hi=5,wi=5,ci=3,co=0,k=3"});
  CHECK(bad.status == 2);
  CHECK(bad.output == text.output);
  CHECK(bad.output.find('\n') == bad.output.size() - 1);
  CHECK(run_npusim({"explain", "--layer", "hi=5,wi=5,ci=3,co=2,k=3", "--format", "yaml"}).status != 0);
}
