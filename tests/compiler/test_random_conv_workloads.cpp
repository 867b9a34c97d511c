// Randomized conv layers (odd channels, strides 1-4, kernels 1-7, asymmetric padding)
// compiled into bands on a small-NRAM four-core chip must equal the plain reference.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "reference/ReferenceConv.h"
#include "apps/frontend/workload/Workload.h"
#include "sim/tensor/Npy.h"

namespace {

std::vector<std::int8_t> int8s(const std::string& path) {
  npusim::NpyArray a = npusim::read_npy(path);
  return std::vector<std::int8_t>(a.data.begin(), a.data.end());
}

// Compiles eight random conv layers for the chip `config` (JSON text, written next to
// the workload) and checks every layer's int8 output against the reference.
// `layer_fields` is added to every layer (e.g. its sparsity). Returns the run directory.
std::string check_random_convs(const std::string& name, const std::string& config, std::uint32_t seed,
                               const std::string& layer_fields = "") {
  std::mt19937 rng(seed);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int hi = pick(9, 17), wi = pick(9, 17), ci = 2 * pick(1, 6) + 1;
  std::vector<npusim::ConvShape> shapes;
  std::string layers;
  for (int i = 0; i < 8; ++i) {
    npusim::ConvShape s;
    s.n = 2, s.hi = hi, s.wi = wi, s.ci = ci;
    s.co = 2 * pick(1, 10) + (i % 2);
    s.kh = pick(1, 7), s.kw = pick(1, 7), s.sh = pick(1, 4), s.sw = pick(1, 4);
    s.pad_top = pick(0, s.kh - 1), s.pad_bottom = pick(0, s.kh - 1);
    s.pad_left = pick(0, s.kw - 1), s.pad_right = pick(0, s.kw - 1);
    shapes.push_back(s);
    layers += fmt::format(R"({}{{"name":"c{}","type":"conv","input":"input","co":{},"kh":{},"kw":{},"sh":{},"sw":{},"padding":[{},{},{},{}],"relu":{}{}}})",
                          i ? "," : "", i, s.co, s.kh, s.kw, s.sh, s.sw, s.pad_top, s.pad_bottom, s.pad_left,
                          s.pad_right, i % 3 == 0 ? "true" : "false", layer_fields);
  }
  const std::string dir = scratch_dir(name);
  write_text(dir + "/w.json", fmt::format(R"({{"batch":2,"input":{{"h":{},"w":{},"c":{}}},"layers":[{}]}})", hi, wi,
                                          ci, layers));
  write_text(dir + "/small.json", config);
  auto r = run_npusim({"run", "--quiet", "--functional", "--workload", dir + "/w.json", "--config",
                       dir + "/small.json", "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto x = int8s(dir + "/run/tensors/input.npy");
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const auto& s = shapes[i];
    INFO("layer c" << i << ": " << s.to_string());
    const auto k = int8s(dir + fmt::format("/run/tensors/c{}.weights.npy", i));
    const auto acc = npusim::reference::direct_conv<std::int8_t, std::int32_t>(s, x, k);
    const std::uint32_t shift = npusim::default_requant_shift(std::uint64_t(s.kh) * s.kw * s.ci);
    std::vector<std::int8_t> want;
    for (auto a : acc) {
      std::int64_t v = (std::int64_t(a) + (std::int64_t(1) << (shift - 1))) >> shift;
      if (i % 3 == 0) v = std::max<std::int64_t>(v, 0);
      want.push_back(std::int8_t(std::clamp<std::int64_t>(v, -128, 127)));
    }
    CHECK(int8s(dir + fmt::format("/run/tensors/c{}.npy", i)) == want);
  }
  return dir + "/run";
}

}  // namespace

TEST_CASE("compiler: random conv layers in bands on four cores equal the reference", "[compiler][e2e]") {
  check_random_convs("random-conv", "{\"extends\": \"" + source_path("configs/smp-2x2.json") +
                                        "\", \"core\": {\"nram\": {\"capacity_bytes\": 8192}}}",
                     20261122);
}

// The same layers on four shader cores (seed003) with a register file small enough
// that layers split into many register-group tiles, for both readings of §2.6.
// The results come from the register-file tiles fetch_ml filled, through the datapath.
TEST_CASE("shader core: random conv layers equal the reference, unrolled into the register file",
          "[shader][compiler][e2e]") {
  check_random_convs("random-conv-fetch-to-rf",
                     "{\"extends\": \"" + source_path("configs/gpu-shader.json") +
                         "\", \"chip\": {\"clusters\": 2, \"cores_per_cluster\": 2}, \"core\": "
                         "{\"register_file\": {\"capacity_bytes\": 16384}, \"shader\": {\"lanes\": 8, "
                         "\"unroll_site\": \"fetch_to_rf\"}}}",
                     20261123);
}

TEST_CASE("shader core: random conv layers equal the reference, unrolled on the register-file read path",
          "[shader][compiler][e2e]") {
  check_random_convs("random-conv-rf-read",
                     "{\"extends\": \"" + source_path("configs/gpu-shader.json") +
                         "\", \"chip\": {\"clusters\": 2, \"cores_per_cluster\": 2}, \"core\": "
                         "{\"register_file\": {\"capacity_bytes\": 8192}, \"shader\": {\"lanes\": 16, "
                         "\"register_groups\": 1, \"unroll_site\": \"rf_read\"}}}",
                     20261124);
}

// The same layers through the fetch-path cache (issue 47): small lines, few ways, each
// next tile preloaded and fetches after a core's first launched by the state machine.
TEST_CASE("shader core: random conv layers equal the reference through the fetch-path cache, preload and auto-fetch",
          "[shader][fetch_cache][compiler][e2e]") {
  check_random_convs("random-conv-fetch-cache",
                     "{\"extends\": \"" + source_path("configs/gpu-shader.json") +
                         "\", \"chip\": {\"clusters\": 2, \"cores_per_cluster\": 2}, \"core\": "
                         "{\"register_file\": {\"capacity_bytes\": 8192}, \"shader\": {\"lanes\": 16}, "
                         "\"fetch_ml\": {\"cache_bytes\": 2048, \"cache_line_bytes\": 32, \"cache_ways\": 2, "
                         "\"preload\": true, \"auto_fetch\": true}}}",
                     20261130);
}

// The same layers declared pruned (60 % zero weights) on 90 %-sparse input, on four
// cores with a sparse cluster each (seed001; five units, so 920 is the 2x2 kind, which
// takes any count): the scheduling engine sends every layer
// to the cluster, whose units compute them through the modelled datapath.
TEST_CASE("sparse cluster: random pruned conv layers equal the reference", "[sparse][compiler][e2e]") {
  for (const char* kind : {"1300", "1400", "1500"}) {
    INFO("unit " << kind);
    const std::string run = check_random_convs(
        std::string("random-conv-sparse-") + kind,
        "{\"extends\": \"" + source_path("configs/sparse.json") +
            "\", \"chip\": {\"clusters\": 2, \"cores_per_cluster\": 2}, \"core\": {\"sparse\": "
            "{\"units\": 5, \"compute_interconnect\": \"2x2\", \"multipliers\": 4, \"min_ports\": 256, "
            "\"fm_buffer_bytes\": 256, \"unit_kind\": \"" +
            kind + "\"}}}",
        20261125, R"(,"activation_sparsity":0.9,"weight_sparsity":0.6)");
    const auto report = nlohmann::json::parse(read_text(run + "/report.json"));
    for (const auto& row : report.at("workload").at("rows")) {
      CHECK(row.at("engine") == "sparse");
      CHECK(row.at("sparse").at("useful_macs").get<std::uint64_t>() < row.at("macs").get<std::uint64_t>());
    }
    const auto x = npusim::read_npy(run + "/tensors/input.npy");
    const auto zeros = std::count(x.data.begin(), x.data.end(), 0);
    CHECK(zeros == std::llround(0.9 * double(x.data.size())));
  }
}
