// Issue 29: the compiler's emission is an EmitContext shared by one lowering per engine
// (apps/compiler/emit, apps/compiler/lower_*). The lowerings are registered once for the
// whole program, so everything they keep while emitting must live in the EmitContext of
// the workload being compiled, and the shared code names no engine.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

#include "apps/compiler/TraceEmitter.h"
#include "apps/compiler/TraceWriter.h"
#include "apps/frontend/WorkloadReader.h"
#include "apps/compiler/emit/TraceOperands.h"
#include "e2e/NpusimProcess.h"
#include "sim/config/ConfigLoader.h"

namespace {

using Trace = std::vector<std::string>;

npusim::TraceEmitter emitter(const std::string& workload, const std::string& config, const npusim::SplitOptions& split) {
  return npusim::TraceEmitter(npusim::read_workload(source_path("traces/workloads/" + workload)),
                              npusim::load_hardware_config(source_path("configs/" + config)), split);
}

Trace alone(const std::string& workload, const std::string& config, const npusim::SplitOptions& split = {}) {
  auto e = emitter(workload, config, split);
  Trace lines;
  for (npusim::Instruction inst; e.next(inst);) lines.push_back(npusim::instruction_line(inst).dump());
  return lines;
}

}  // namespace

TEST_CASE("emission: make_op takes each op's engine from the op catalogue", "[compiler][lowering]") {
  // The engines the compiler wrote out by hand before the op catalogue gave them.
  const std::vector<std::pair<std::string, std::string>> engines = {
      {"load", "load"},       {"store", "store"},        {"conv", "matrix"},       {"dwconv", "vector"},
      {"pool", "vector"},     {"softmax", "vector"},     {"layernorm", "vector"},  {"gelu", "vector"},
      {"add", "vector"},      {"relu", "vector"},        {"requant", "vector"},    {"ml_set", "fetch_ml"},
      {"fetch_ml", "fetch_ml"}, {"ml_return", "fetch_ml"}, {"ml_matmul", "shader"}, {"compress", "sparse"},
      {"sparse_conv", "sparse"}};
  for (const auto& [op, engine] : engines) {
    INFO(op);
    const npusim::Instruction inst = npusim::make_op(op, 3);
    CHECK(inst.op == op);
    CHECK(inst.engine == engine);
    CHECK(inst.core == 3);
  }
  CHECK_THROWS_AS(npusim::make_op("no_such_op", 0), std::logic_error);
}

// Two workloads compiled at the same time, one instruction of each in turn, give the
// same traces as each compiled alone: no lowering keeps state of its own between calls.
TEST_CASE("emission: two emitters interleaved give the traces each gives alone", "[compiler][lowering]") {
  npusim::SplitOptions model_ci;
  model_ci.choice = npusim::SplitChoice::ModelCi;
  struct Case {
    std::string workload, config;
    npusim::SplitOptions split;
  };
  const std::vector<std::pair<Case, Case>> pairs = {
      {{"tiny.json", "smp-2x2-cache.json", model_ci}, {"tiny.json", "numa-2x2.json", model_ci}},  // matrix + vector, reductions
      {{"tiny.json", "gpu-shader.json", {}}, {"resnet50-pruned.json", "sparse.json", {}}},      // shader + sparse
      {{"bert-base-2l.json", "default.json", {}}, {"mobilenetv2.json", "smp-4x4.json", {}}}};   // matmul and row ops; depthwise
  for (const auto& [a, b] : pairs) {
    INFO(a.workload << " on " << a.config << " with " << b.workload << " on " << b.config);
    const Trace want_a = alone(a.workload, a.config, a.split), want_b = alone(b.workload, b.config, b.split);
    auto ea = emitter(a.workload, a.config, a.split), eb = emitter(b.workload, b.config, b.split);
    Trace got_a, got_b;
    npusim::Instruction inst;
    for (bool more_a = true, more_b = true; more_a || more_b;) {
      if (more_a && (more_a = ea.next(inst))) got_a.push_back(npusim::instruction_line(inst).dump());
      if (more_b && (more_b = eb.next(inst))) got_b.push_back(npusim::instruction_line(inst).dump());
    }
    REQUIRE(!want_a.empty());
    CHECK(got_a == want_a);
    CHECK(got_b == want_b);
  }
}

// Only a lowering's own folder may name its engine (fetch_ml belongs to the shader
// lowering): the dispatcher and the shared emission code stay engine-blind.
TEST_CASE("emission: the emitter and the shared emit code name no engine", "[compiler][lowering]") {
  const std::regex engine_name(R"re("(matrix|vector|shader|fetch_ml|sparse|dma)")re");
  std::vector<std::filesystem::path> files;
  for (const char* name : {"TraceEmitter.h", "TraceEmitter.cpp"})
    files.push_back(std::filesystem::path(source_path("apps/compiler")) / name);
  for (const auto& entry : std::filesystem::directory_iterator(source_path("apps/compiler/emit")))
    files.push_back(entry.path());
  REQUIRE(files.size() > 10);
  for (const auto& file : files) {
    std::ifstream in(file);
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      INFO(file.string() << ":" << number << ": " << line);
      CHECK_FALSE(std::regex_search(line, engine_name));
    }
  }
}
