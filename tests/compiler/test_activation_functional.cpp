// The activations (sigmoid, hardsigmoid, hardswish, silu, tanh) and mul (same shape, and
// a per-channel gate broadcast over h x w) in functional mode over randomized shapes,
// each checked against a plain reference written from docs/workload-format.md
// ("Activations and elementwise") and computed from the tensors the run dumps.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <random>

#include <fmt/format.h>

#include "compiler/FunctionalRun.h"
#include "compiler/ReferenceLayers.h"
#include "e2e/NpusimProcess.h"

using namespace npusim::layer_reference;

namespace {

// y = f(q / 2^frac) written back with `out_frac` fraction bits, rounded half away from zero.
Tensor apply(const Tensor& x, std::uint32_t frac, std::uint32_t out_frac, const std::function<double(double)>& f) {
  Tensor y = x;
  for (std::size_t i = 0; i < x.v.size(); ++i)
    y.v[i] = saturate(std::llround(f(std::ldexp(double(x.v[i]), -int(frac))) * std::ldexp(1.0, int(out_frac))));
  return y;
}

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
double hard_sigmoid(double x) { return std::min(1.0, std::max(0.0, x + 3) / 6); }  // relu6(x + 3) / 6

// a * b >> 7 rounded half up; b is a's shape or one value per channel of each image.
Tensor product(const Tensor& a, const Tensor& b, std::uint32_t shift) {
  Tensor y = a;
  const std::size_t per_image = std::size_t(a.h) * a.w * a.c;
  const bool gate = b.v.size() != a.v.size();
  for (std::size_t i = 0; i < a.v.size(); ++i) {
    const std::size_t j = gate ? i / per_image * a.c + i % a.c : i;
    y.v[i] = requant(std::int64_t(a.v[i]) * b.v[j], shift, false);
  }
  return y;
}

// Every element equal but a few within one step (a value within rounding error of a half).
void check_close(const Tensor& got, const Tensor& want) {
  REQUIRE(got.v.size() == want.v.size());
  std::size_t off = 0, far = 0;
  for (std::size_t i = 0; i < got.v.size(); ++i) {
    off += got.v[i] != want.v[i];
    far += std::abs(got.v[i] - want.v[i]) > 1;
  }
  CHECK(far == 0);
  CHECK(off <= got.v.size() / 1000);
  CHECK(std::count(got.v.begin(), got.v.end(), got.v.front()) < std::ptrdiff_t(got.v.size()));  // not degenerate
}

}  // namespace

TEST_CASE("compiler: sigmoid, hardsigmoid, hardswish, silu and tanh equal a plain reference",
          "[compiler][activation][e2e]") {
  std::mt19937 rng(41);
  const std::string dir = scratch_dir("activations");
  for (int trial = 0; trial < 3; ++trial) {
    const std::uint32_t h = 1 + rng() % 20, w = 1 + rng() % 20, c = 1 + rng() % 40, frac = rng() % 8;
    const std::uint32_t batch = 1 + rng() % 2;
    INFO(fmt::format("trial {}: {}x{}x{} frac_bits {} batch {}", trial, h, w, c, frac, batch));
    std::string layers;
    for (const char* kind : {"sigmoid", "hardsigmoid", "hardswish", "silu", "tanh"})
      layers += fmt::format(R"({}{{"name": "{}", "type": "{}", "frac_bits": {}, "input": "input"}})",
                            layers.empty() ? "" : ",", kind, kind, frac);
    const std::string path = dir + fmt::format("/act{}.json", trial);
    write_text(path, fmt::format(R"({{"batch": {}, "seed": {}, "input": {{"h": {}, "w": {}, "c": {}}}, "layers": [{}]}})",
                                 batch, trial + 3, h, w, c, layers));
    const std::string config = source_path(trial == 1 ? "configs/default.json" : "configs/smp-2x2.json");
    const std::string t = run_functional(path, config, dir + fmt::format("/out{}", trial));
    const Tensor x = load(t + "input.npy");
    check_close(load(t + "sigmoid.npy"), apply(x, frac, 7, sigmoid));
    check_close(load(t + "hardsigmoid.npy"), apply(x, frac, 7, hard_sigmoid));
    check_close(load(t + "hardswish.npy"), apply(x, frac, frac, [](double v) { return v * hard_sigmoid(v); }));
    check_close(load(t + "silu.npy"), apply(x, frac, frac, [](double v) { return v * sigmoid(v); }));
    check_close(load(t + "tanh.npy"), apply(x, frac, 7, [](double v) { return std::tanh(v); }));
  }
}

TEST_CASE("compiler: mul of two activations and of a per-channel gate equals a plain reference",
          "[compiler][activation][e2e]") {
  std::mt19937 rng(43);
  const std::string dir = scratch_dir("activation-mul");
  for (int trial = 0; trial < 4; ++trial) {
    const std::uint32_t h = 1 + rng() % 24, w = 1 + rng() % 24, c = 1 + rng() % 70, batch = 1 + rng() % 3;
    const std::uint32_t shift = 5 + rng() % 4;
    INFO(fmt::format("trial {}: {}x{}x{} batch {} shift {}", trial, h, w, c, batch, shift));
    const std::string path = dir + fmt::format("/mul{}.json", trial);
    write_text(path, fmt::format(R"({{"batch": {}, "seed": {}, "input": {{"h": {}, "w": {}, "c": {}}}, "layers": [
      {{"name": "squeeze", "type": "pool", "mode": "avg", "global": true}},
      {{"name": "gate", "type": "sigmoid", "frac_bits": 2}},
      {{"name": "scaled", "type": "mul", "inputs": ["input", "gate"]}},
      {{"name": "t", "type": "tanh", "frac_bits": 3, "input": "input"}},
      {{"name": "both", "type": "mul", "inputs": ["t", "input"], "shift": {}}}]}})",
                                 batch, trial + 9, h, w, c, shift));
    const std::string config = source_path(trial % 2 ? "configs/numa-2x2.json" : "configs/default.json");
    const std::string t = run_functional(path, config, dir + fmt::format("/out{}", trial));
    const Tensor x = load(t + "input.npy");
    check_close(load(t + "scaled.npy"), product(x, load(t + "gate.npy"), 7));
    check_close(load(t + "both.npy"), product(load(t + "t.npy"), x, shift));
  }
}

TEST_CASE("workload: a mul of tensors of different shapes exits 2 naming the layer", "[compiler][activation][e2e]") {
  const std::string dir = scratch_dir("activation-mul-bad");
  const std::string path = dir + "/bad.json";
  write_text(path, R"({"input": {"h": 4, "w": 4, "c": 8}, "layers": [
    {"name": "p", "type": "pool", "k": 2, "stride": 2},
    {"name": "m", "type": "mul", "inputs": ["input", "p"]}]})");
  auto r = run_npusim({"run", "--quiet", "--workload", path, "--out", dir + "/out"});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("layers[1] (m), field 'inputs'") && Catch::Contains("1x1x8"));
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

TEST_CASE("compiler: add_constant and mask read their constant band by band and equal a plain reference",
          "[compiler][activation][e2e]") {
  std::mt19937 rng(47);
  const std::string dir = scratch_dir("activation-constants");
  for (int trial = 0; trial < 3; ++trial) {
    const std::uint32_t h = 1 + rng() % 40, w = 1 + rng() % 6, c = 1 + rng() % 50, batch = 1 + rng() % 3;
    const int fill = int(rng() % 256) - 128;
    INFO(fmt::format("trial {}: {}x{}x{} batch {} fill {}", trial, h, w, c, batch, fill));
    // A causal pattern: position p keeps the channels below p (as attention keeps earlier tokens).
    npusim::NpyArray causal{npusim::DType::Int8, {h, w, c}, {}};
    for (std::uint32_t p = 0; p < h * w; ++p)
      for (std::uint32_t k = 0; k < c; ++k) causal.data.push_back(k <= p ? 1 : 0);
    npusim::write_npy(dir + fmt::format("/causal{}.npy", trial), causal);
    const std::string path = dir + fmt::format("/const{}.json", trial);
    write_text(path, fmt::format(R"({{"batch": {}, "seed": {}, "input": {{"h": {}, "w": {}, "c": {}}}, "layers": [
      {{"name": "pos", "type": "add_constant"}},
      {{"name": "masked", "type": "mask", "fill": {}, "input": "input", "weights": "causal{}.npy"}}]}})",
                                 batch, trial + 13, h, w, c, fill, trial));
    const std::string config = source_path(trial == 2 ? "configs/numa-2x2.json" : "configs/smp-2x2.json");
    const std::string t = run_functional(path, config, dir + fmt::format("/out{}", trial));
    const Tensor x = load(t + "input.npy"), table = load(t + "pos.weights.npy");
    const Tensor keep{0, 0, 0, 0, {causal.data.begin(), causal.data.end()}};
    const std::size_t per_image = std::size_t(h) * w * c;
    REQUIRE(table.v.size() == per_image);
    Tensor sum = x, picked = x;
    for (std::size_t i = 0; i < x.v.size(); ++i) {
      sum.v[i] = saturate(std::int64_t(x.v[i]) + table.v[i % per_image]);  // the same constant for every image
      picked.v[i] = keep.v[i % per_image] != 0 ? x.v[i] : std::int8_t(fill);
    }
    check_close(load(t + "pos.npy"), sum);
    check_close(load(t + "masked.npy"), picked);
  }
}

TEST_CASE("compiler: an embedding gathers its table's rows by token id with the DMAs alone",
          "[compiler][activation][e2e]") {
  std::mt19937 rng(53);
  const std::string dir = scratch_dir("activation-embedding");
  for (int trial = 0; trial < 3; ++trial) {
    const std::uint32_t tokens = 1 + rng() % 40, vocab = 1 + rng() % 300, d = 1 + rng() % 70, batch = 1 + rng() % 3;
    std::vector<std::uint32_t> ids;
    for (std::uint32_t i = 0; i < batch * tokens; ++i) ids.push_back(rng() % vocab);
    INFO(fmt::format("trial {}: {} tokens, vocab {}, d {}, batch {}", trial, tokens, vocab, d, batch));
    const std::string path = dir + fmt::format("/emb{}.json", trial);
    write_text(path, fmt::format(R"({{"batch": {}, "seed": {}, "input": {{"h": {}, "w": 1, "c": 1}}, "layers": [
      {{"name": "tok", "type": "embedding", "vocab": {}, "n": {}, "ids": [{}]}}]}})",
                                 batch, trial + 3, tokens, vocab, d, fmt::join(ids, ", ")));
    const std::string config = source_path(trial == 1 ? "configs/numa-2x2.json" : "configs/smp-2x2.json");
    const std::string t = run_functional(path, config, dir + fmt::format("/out{}", trial));
    const Tensor table = load(t + "tok.weights.npy"), got = load(t + "tok.npy");
    REQUIRE(got.v.size() == std::size_t(batch) * tokens * d);
    std::size_t wrong = 0;
    for (std::size_t p = 0; p < ids.size(); ++p)
      for (std::uint32_t k = 0; k < d; ++k) wrong += got.v[p * d + k] != table.v[std::size_t(ids[p]) * d + k];
    CHECK(wrong == 0);
  }
}

TEST_CASE("workload: a token id outside the embedding's table exits 2 naming the layer", "[compiler][activation][e2e]") {
  const std::string dir = scratch_dir("activation-embedding-bad");
  const std::string path = dir + "/bad.json";
  write_text(path, R"({"input": {"h": 3, "w": 1, "c": 1}, "layers": [
    {"name": "tok", "type": "embedding", "vocab": 10, "n": 4, "ids": [1, 10, 2]}]})");
  auto r = run_npusim({"run", "--quiet", "--workload", path, "--out", dir + "/out"});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("layers[0] (tok), field 'ids'") && Catch::Contains("token id 10 at position 1"));
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

TEST_CASE("compiler: a compiled trace of the new layers computes what run --workload computes",
          "[compiler][activation][e2e]") {
  const std::string dir = scratch_dir("activation-trace");
  const std::string w = dir + "/w.json";
  write_text(w, R"({"batch": 2, "input": {"h": 6, "w": 1, "c": 1}, "layers": [
    {"name": "tok", "type": "embedding", "vocab": 20, "n": 16},
    {"name": "pos", "type": "add_constant"},
    {"name": "sq", "type": "pool", "mode": "avg", "global": true},
    {"name": "g", "type": "sigmoid", "frac_bits": 2},
    {"name": "m", "type": "mul", "inputs": ["pos", "g"]},
    {"name": "k", "type": "mask", "fill": -100},
    {"name": "h", "type": "hardswish", "frac_bits": 3}]})");
  auto r = run_npusim({"compile", "--quiet", "--workload", w, "-o", dir + "/t.jsonl"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  r = run_npusim({"run", "--quiet", "--functional", "--trace", dir + "/t.jsonl", "--out", dir + "/trace"});
  REQUIRE(r.status == 0);
  const std::string t = run_functional(w, source_path("configs/default.json"), dir + "/workload");
  for (const char* name : {"tok", "pos", "g", "m", "k", "h"})
    CHECK(load(dir + "/trace/tensors/" + name + ".npy").v == load(t + name + ".npy").v);
}
