// Bad ONNX input: one message naming the file and the node (or input, or opset),
// exit status 2, for run, compile and validate alike.
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <filesystem>

#include <sys/resource.h>

#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"
#include "onnx/OnnxTestGraph.h"

namespace {

NpusimResult validate(const std::string& model, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"validate", model};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_npusim(args);
}

}  // namespace

TEST_CASE("onnx: an unsupported op names the node, its op type and the supported ops", "[onnx][e2e]") {
  const std::string dir = scratch_dir("onnx-unsupported");
  OnnxTestGraph g({1, 3, 8, 8});
  g.output(g.unary("Sin", "odd_one", g.unary("Relu", "r", g.conv("c", "input", 3, 4, 3, 1, 1))));
  const std::string model = g.save(dir + "/m.onnx");
  for (const auto& command : {std::vector<std::string>{"validate", model},
                              {"run", "--workload", model, "--out", dir + "/run"},
                              {"compile", "--workload", model, "-o", dir + "/t.jsonl"}})
    check_refused(run_npusim(command), {"m.onnx: node 'odd_one' (Sin)", "'Sin' is not supported",
                                        "supported ops: Add, AveragePool"});
  CHECK(!std::filesystem::exists(dir + "/run"));
  CHECK(!std::filesystem::exists(dir + "/t.jsonl"));
}

TEST_CASE("onnx: a dynamic input dimension needs --input-shape", "[onnx][e2e]") {
  const std::string dir = scratch_dir("onnx-dynamic");
  OnnxTestGraph g({1, 3, 8, 8});
  g.model.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)
      ->set_dim_param("batch");
  g.output(g.unary("Relu", "r", g.conv("c", "input", 3, 4, 3, 1, 1)));
  const std::string model = g.save(dir + "/m.onnx");
  check_refused(validate(model), {"m.onnx: graph input 'input'", "dimension 0 ('batch') is dynamic",
                                  "--input-shape input="});
  const auto ok = validate(model, {"--input-shape", "input=3x3x8x8"});
  INFO(ok.output);
  CHECK(ok.status == 0);
  CHECK(ok.output.find("batch 3") != std::string::npos);
  check_refused(validate(model, {"--input-shape", "input=3x3x9x8"}), {"which the model fixes at 8"});
  check_refused(validate(model, {"--input-shape", "data=3x3x8x8"}), {"no activation input 'data'"});
  check_refused(validate(model, {"--input-shape", "input=3xx8"}), {"--input-shape", "NAME=D1xD2"});
}

TEST_CASE("onnx: a truncated model file is refused", "[onnx][e2e]") {
  const std::string dir = scratch_dir("onnx-truncated");
  OnnxTestGraph g({1, 3, 8, 8});
  g.output(g.unary("Relu", "r", g.conv("c", "input", 3, 4, 3, 1, 1)));
  const std::string whole = read_text(g.save(dir + "/whole.onnx"));
  for (const double fraction : {0.5, 0.9, 0.99}) {
    write_text(dir + "/cut.onnx", whole.substr(0, std::size_t(double(whole.size()) * fraction)));
    check_refused(validate(dir + "/cut.onnx"), {"cut.onnx: "});
    check_refused(run_npusim({"run", "--workload", dir + "/cut.onnx", "--out", dir + "/run"}), {"cut.onnx: "});
  }
}

TEST_CASE("onnx: an opset outside 11 to 17 is refused", "[onnx][e2e]") {
  const std::string dir = scratch_dir("onnx-opset");
  for (const std::int64_t opset : {9, 18}) {
    OnnxTestGraph g({1, 3, 8, 8}, opset);
    g.output(g.unary("Relu", "r", "input"));
    check_refused(validate(g.save(dir + "/m.onnx")),
                  {"m.onnx: opset_import: opset " + std::to_string(opset) + " is outside the supported range 11 to 17"});
  }
}

TEST_CASE("onnx: graphs the engines cannot run as written are refused at their node", "[onnx][e2e]") {
  const std::string dir = scratch_dir("onnx-refused");
  SECTION("a Flatten of a map with channels and positions that no Gemm reads moves data") {
    OnnxTestGraph g({1, 3, 8, 8});
    g.output(g.unary("Relu", "r", g.flatten("flat", g.conv("c", "input", 3, 4, 3, 1, 1))));
    check_refused(validate(g.save(dir + "/m.onnx")), {"node 'flat' (Flatten)", "would move data"});
  }
  SECTION("a bias in functional mode is no longer refused: the requantization adds it (test_onnx_bias.cpp)") {
    OnnxTestGraph g({1, 16});
    auto& n = g.node("Gemm", "fc", {"input", g.initializer("w", {16, 4}, std::vector<float>(64, 0.5f)),
                                    g.initializer("b", {4}, {1, 2, 3, 4})});
    g.output(n.output(0));
    const std::string model = g.save(dir + "/m.onnx");
    const auto functional = run_npusim({"run", "--functional", "--workload", model, "--out", dir + "/run"});
    INFO(functional.output);
    CHECK(functional.status == 0);
    CHECK(functional.output.find("bias") == std::string::npos);  // no note: nothing is left out
  }
  SECTION("--input-shape on a JSON workload") {
    check_refused(run_npusim({"run", "--workload", source_path("traces/workloads/tiny.json"), "--input-shape",
                              "input=1x1", "--out", dir + "/run"}),
                  {"only ONNX models take input shapes"});
  }
}

TEST_CASE("onnx: a compiled model's trace carries its weights and computes the same tensors", "[onnx][e2e]") {
  const std::string dir = scratch_dir("onnx-compile");
  OnnxTestGraph g({1, 3, 8, 8});
  g.output(g.unary("Relu", "r", g.conv("c", "input", 3, 4, 3, 1, 1)));
  const std::string model = g.save(dir + "/m.onnx");
  auto r = run_npusim({"compile", "--quiet", "--workload", model, "-o", dir + "/t.jsonl"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(std::filesystem::exists(dir + "/t.jsonl.data/c.weights.npy"));
  r = run_npusim({"run", "--quiet", "--functional", "--trace", dir + "/t.jsonl", "--out", dir + "/trace"});
  REQUIRE(r.status == 0);
  r = run_npusim({"run", "--quiet", "--functional", "--workload", model, "--out", dir + "/workload"});
  REQUIRE(r.status == 0);
  CHECK(read_text(dir + "/trace/tensors/c.npy") == read_text(dir + "/workload/tensors/c.npy"));
  CHECK(read_text(dir + "/trace/tensors/c.weights.npy") == read_text(dir + "/workload/tensors/c.weights.npy"));
}

// The weights directory beside a compiled trace is npusim's only when npusim made it:
// a user's folder of that name is never written into, and a failed compile takes away
// the directory it had just made.
TEST_CASE("onnx: compile writes weights only into a weights directory it made", "[onnx][e2e][ownership]") {
  const std::string dir = scratch_dir("onnx-compile-data");
  OnnxTestGraph g({1, 3, 8, 8});
  g.output(g.unary("Relu", "r", g.conv("c", "input", 3, 4, 3, 1, 1)));
  const std::string model = g.save(dir + "/m.onnx");
  auto compile = [&](const std::string& trace) {
    return run_npusim({"compile", "--quiet", "--workload", model, "-o", trace});
  };
  std::filesystem::create_directories(dir + "/mine.jsonl.data");
  write_text(dir + "/mine.jsonl.data/c.weights.npy", "my notes");
  check_refused(compile(dir + "/mine.jsonl"), {"mine.jsonl.data", "did not make"});
  CHECK(read_text(dir + "/mine.jsonl.data/c.weights.npy") == "my notes");
  CHECK_FALSE(std::filesystem::exists(dir + "/mine.jsonl"));

  REQUIRE(compile(dir + "/t.jsonl").status == 0);
  CHECK(std::filesystem::exists(dir + "/t.jsonl.data/.npusim-trace-data"));
  CHECK(compile(dir + "/t.jsonl").status == 0);  // its own directory: reused

  // Files over 1 KiB fail (RLIMIT_FSIZE): the weights fit, the trace does not.
  NpusimLaunch small_files;
  small_files.in_child = [] {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit {1024, 1024};
    setrlimit(RLIMIT_FSIZE, &limit);
  };
  const auto failed = run_npusim({"compile", "--quiet", "--workload", model, "-o", dir + "/big.jsonl"}, small_files);
  INFO(failed.output);
  CHECK(failed.status == 2);
  CHECK(failed.output.find("big.jsonl: writing failed") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir + "/big.jsonl.data"));
  CHECK_FALSE(std::filesystem::exists(dir + "/big.jsonl"));
}

TEST_CASE("onnx: a model the ONNX checker rejects gets one line, the checker's text joined and escaped",
          "[onnx][e2e][bad-input]") {
  // The checker's text spans lines ("...\n\n==> Context: Bad node spec ..."): 594 of
  // 1,304 ONNX refusals of the issue 28 audit printed several lines.
  const std::string dir = scratch_dir("onnx-checker-lines");
  OnnxTestGraph g({1, 3, 8, 8});
  auto& n = g.node("Relu", "r\x1b[31m\nred", {"input"});
  auto* a = n.add_attribute();
  a->set_name("foo");
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(1);
  g.output(n.output(0));
  const NpusimResult r = validate(g.save(dir + "/m.onnx"));
  check_refused(r, {"m.onnx: the ONNX checker rejects the model: ", "Unrecognized attribute: foo for operator Relu ",
                    "==> Context: Bad node spec", "r\\x1b[31m red"});
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  CHECK(r.output.find('\x1b') == std::string::npos);
}
