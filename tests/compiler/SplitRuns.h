#pragma once
// What the split tests share: chips of 1 to 64 cores, a functional run with --split
// forced, layer-by-layer comparison of two runs' tensors, and random conv and fc layers
// (plus a matmul) with their plain reference.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/RandomLayers.h"
#include "compiler/ReferenceLayers.h"
#include "e2e/NpusimProcess.h"
#include "sim/tensor/Npy.h"

namespace npusim::split_runs {

struct Machine {
  std::string name;
  std::string config;  // path
};

// Each shipped config in `bases` ("smp-2x2.json" ...) written into `dir` with the core overrides.
inline std::vector<Machine> machines(const std::string& dir, const std::string& core_overrides,
                                     const std::vector<std::pair<std::string, std::string>>& bases) {
  std::vector<Machine> out;
  for (const auto& [name, base] : bases) {
    const std::string path = fmt::format("{}/{}", dir, base);
    write_text(path, fmt::format(R"({{"extends": "{}"{}}})", source_path("configs/" + base),
                                 core_overrides.empty() ? "" : ", \"core\": " + core_overrides));
    out.push_back({name, path});
  }
  return out;
}

inline std::string run(const std::string& workload, const Machine& m, const std::string& split, const std::string& out,
                       const std::string& dependency_mode = "") {
  std::vector<std::string> args = {"run", "--quiet", "--functional", "--workload", workload, "--config", m.config,
                                   "--split", split, "--out", out};
  if (!dependency_mode.empty()) args.insert(args.end(), {"--dependency-mode", dependency_mode});
  auto r = run_npusim(args);
  INFO(m.name << ", --split " << split << "\n" << r.output);
  REQUIRE(r.status == 0);
  return out;
}

// Every layer's output of run `b` equals run `a`'s; returns how many layers ran in `mode`.
inline std::size_t check_same(const std::string& a, const std::string& b, const std::string& mode) {
  const auto report = nlohmann::json::parse(read_text(b + "/report.json"));
  std::size_t split = 0;
  for (const auto& row : report.at("workload").at("rows")) {
    const std::string name = row.at("name");
    INFO("layer " << name << " (" << row.at("split").at("mode") << ")");
    CHECK(npusim::read_npy(b + "/tensors/" + name + ".npy").data == npusim::read_npy(a + "/tensors/" + name + ".npy").data);
    split += row.at("split").at("mode") == mode;
  }
  return split;
}

// Ten random layers (odd channel counts, strides 1-3, kernels 1-5, asymmetric padding,
// ReLU or not) over one random input, optionally followed by two fc layers and the
// matmul of their outputs (Q·Kᵀ-like: transpose_b).
struct RandomNet {
  std::string json;
  std::vector<layer_reference::RandomLayer> specs;
};

inline RandomNet random_net(std::mt19937& rng, int net, bool matmul) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int h = pick(5, 12), w = pick(5, 12), ci = pick(3, 70);
  RandomNet out;
  std::string layers;
  for (int i = 0; i < 10; ++i) {
    out.specs.push_back(layer_reference::random_layer(pick, 1, 40));
    layers += layer_reference::random_layer_json(out.specs.back(), i);
  }
  if (matmul) {
    const int n = pick(2, 33);
    layers += fmt::format(R"(,{{"name":"qa","type":"fc","input":"input","n":{0}}},{{"name":"kb","type":"fc","input":"input","n":{0}}},)"
                          R"({{"name":"scores","type":"matmul","inputs":["qa","kb"],"transpose_b":true}})",
                          n);
  }
  out.json = fmt::format(R"({{"batch":{},"seed":{},"input":{{"h":{},"w":{},"c":{}}},"layers":[{}]}})", pick(1, 2),
                         100 + net, h, w, ci, layers);
  return out;
}

// The conv and fc layers of a run of `net` equal the plain reference.
inline void check_reference(const RandomNet& net, const std::string& run_dir) {
  using namespace npusim::layer_reference;
  const Tensor x = load(run_dir + "/tensors/input.npy");
  for (std::size_t i = 0; i < net.specs.size(); ++i) {
    const RandomLayer& s = net.specs[i];
    INFO("layer l" << i);
    const Tensor k = load(fmt::format("{}/tensors/l{}.weights.npy", run_dir, i));
    CHECK(load(fmt::format("{}/tensors/l{}.npy", run_dir, i)).v == conv(x, k, s.co, s.kh, s.kw, s.sh, s.sw, s.pad, s.relu).v);
  }
}

}  // namespace npusim::split_runs
