// The tiny bundled net in functional mode: every layer's dumped output must equal a
// plain reference computed here from the dumped input and weights.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "compiler/ReferenceLayers.h"
#include "apps/frontend/workload/Workload.h"
#include "sim/tensor/Npy.h"

namespace {

using namespace npusim::layer_reference;

// Plain window walk shared by pooling and depthwise: f(out index, in index, tap).
template <typename F>
Tensor window(const Tensor& x, std::uint32_t k, std::uint32_t s, std::uint32_t pad, F f) {
  Tensor y{x.n, (x.h + 2 * pad - k) / s + 1, (x.w + 2 * pad - k) / s + 1, x.c, {}};
  y.v.resize(std::size_t(y.n) * y.h * y.w * y.c);
  for (std::uint32_t b = 0; b < x.n; ++b)
    for (std::uint32_t oh = 0; oh < y.h; ++oh)
      for (std::uint32_t ow = 0; ow < y.w; ++ow)
        for (std::uint32_t c = 0; c < x.c; ++c) {
          std::vector<std::pair<std::size_t, std::uint32_t>> taps;
          for (std::uint32_t i = 0; i < k; ++i)
            for (std::uint32_t j = 0; j < k; ++j) {
              long h = long(oh * s + i) - pad, w = long(ow * s + j) - pad;
              if (h < 0 || w < 0 || h >= long(x.h) || w >= long(x.w)) continue;
              taps.push_back({((std::size_t(b) * x.h + h) * x.w + w) * x.c + c, i * k + j});
            }
          y.v[((std::size_t(b) * y.h + oh) * y.w + ow) * y.c + c] = f(taps, c);
        }
  return y;
}

Tensor max_pool(const Tensor& x, std::uint32_t k, std::uint32_t s) {
  return window(x, k, s, 0, [&](const auto& taps, std::uint32_t) {
    std::int8_t m = -128;
    for (auto [i, t] : taps) m = std::max(m, x.v[i]);
    return m;
  });
}

Tensor global_avg(const Tensor& x) {
  Tensor y{x.n, 1, 1, x.c, {}};
  const std::int64_t n = std::int64_t(x.h) * x.w;
  for (std::uint32_t b = 0; b < x.n; ++b)
    for (std::uint32_t c = 0; c < x.c; ++c) {
      std::int64_t sum = 0;
      for (std::int64_t p = 0; p < n; ++p) sum += x.v[(std::size_t(b) * n + p) * x.c + c];
      const std::int64_t num = 2 * sum + n, den = 2 * n;  // round half up
      y.v.push_back(saturate(num >= 0 ? num / den : -((-num + den - 1) / den)));
    }
  return y;
}

Tensor depthwise(const Tensor& x, const Tensor& k, bool relu) {
  const std::uint32_t shift = npusim::default_requant_shift(9);
  return window(x, 3, 1, 1, [&](const auto& taps, std::uint32_t c) {
    std::int64_t acc = 0;
    for (auto [i, t] : taps) acc += std::int64_t(x.v[i]) * k.v[t * x.c + c];
    return requant(acc, shift, relu);
  });
}

}  // namespace

TEST_CASE("compiler: tiny net in functional mode equals the plain reference layer by layer", "[compiler][e2e]") {
  std::string dir, config = source_path("configs/default.json");
  SECTION("convs requantized on the matrix unit's result path (the default)") { dir = scratch_dir("tiny-functional"); }
  SECTION("int32 accumulators through NRAM, requantized by the vector unit") {
    dir = scratch_dir("tiny-functional-accumulators");
    config = dir + "-config.json";
    write_text(config, "{\"extends\": \"" + source_path("configs/default.json") +
                           "\", \"core\": {\"matrix\": {\"result_requantize\": false}}}");
  }
  auto r = run_npusim({"run", "--quiet", "--functional", "--workload", source_path("traces/workloads/tiny.json"),
                       "--config", config, "--out", dir});
  INFO(r.output);
  REQUIRE(r.status == 0);
  auto t = [&](const std::string& name) { return load(dir + "/tensors/" + name + ".npy"); };
  std::map<std::string, Tensor> ref;
  const Tensor x = t("input");
  REQUIRE(x.n == 2);
  ref["conv1"] = conv(x, t("conv1.weights"), 16, 3, 3, 1, 1, {1, 1, 1, 1}, true);
  ref["pool1"] = max_pool(ref["conv1"], 2, 2);
  ref["dw2"] = depthwise(ref["pool1"], t("dw2.weights"), true);
  ref["conv3"] = conv(ref["dw2"], t("conv3.weights"), 16, 1, 1, 1, 1, {0, 0, 0, 0}, false);
  ref["add3"] = ref["conv3"];
  for (std::size_t i = 0; i < ref["add3"].v.size(); ++i)
    ref["add3"].v[i] = saturate(std::int64_t(ref["conv3"].v[i]) + ref["pool1"].v[i]);
  ref["relu3"] = ref["add3"];
  for (auto& v : ref["relu3"].v) v = std::max<std::int8_t>(v, 0);
  ref["conv4"] = conv(ref["relu3"], t("conv4.weights"), 24, 3, 5, 2, 1, {1, 1, 2, 2}, true);
  ref["pool4"] = global_avg(ref["conv4"]);
  ref["fc5"] = conv(ref["pool4"], t("fc5.weights"), 10, 1, 1, 1, 1, {0, 0, 0, 0}, false);
  for (const auto& [name, want] : ref) {
    INFO("layer " << name);
    const Tensor got = t(name);
    CHECK(got.h == want.h);
    CHECK(got.w == want.w);
    CHECK(got.c == want.c);
    CHECK(got.v == want.v);
  }
  // The data is not degenerate: the first conv has both signs before its ReLU clamps.
  CHECK(std::count(ref["conv1"].v.begin(), ref["conv1"].v.end(), 0) < std::ptrdiff_t(ref["conv1"].v.size()));
}

TEST_CASE("compiler: tiny net results do not depend on the tiling or the core count", "[compiler][e2e]") {
  const std::string dir = scratch_dir("tiny-tilings");
  // A small NRAM forces one-row bands and single buffers; four cores split the bands.
  write_text(dir + "/small.json", "{\"extends\": \"" + source_path("configs/smp-2x2.json") +
                                      "\", \"core\": {\"nram\": {\"capacity_bytes\": 1024}, "
                                      "\"wram\": {\"capacity_bytes\": 8192}}}");
  // A 1 KiB WRAM splits conv1 and conv4 into odd-sized co blocks, stored with a pitch.
  write_text(dir + "/blocked.json", "{\"extends\": \"" + source_path("configs/smp-2x2.json") +
                                        "\", \"core\": {\"wram\": {\"capacity_bytes\": 1024}}}");
  const std::vector<std::string> configs = {source_path("configs/default.json"), source_path("configs/smp-2x2.json"),
                                            dir + "/small.json", dir + "/blocked.json"};
  for (std::size_t i = 0; i < configs.size(); ++i) {
    std::vector<std::string> args = {"run", "--quiet", "--functional", "--workload",
                                     source_path("traces/workloads/tiny.json"), "--config", configs[i],
                                     "--out", dir + "/run" + std::to_string(i)};
    // Data-parallel on the blocked chip: a hybrid split would give each core few enough
    // channels to fit the small WRAM in one block.
    if (i == 3) args.insert(args.end(), {"--split", "data"});
    auto r = run_npusim(args);
    INFO(r.output);
    REQUIRE(r.status == 0);
  }
  const auto report = nlohmann::json::parse(read_text(dir + "/run2/report.json"));
  std::size_t single = 0;
  for (const auto& row : report.at("workload").at("rows")) single += row.at("tiling").at("nram_buffers") == 1;
  CHECK(single > 0);
  std::map<std::string, std::uint64_t> blocks;
  const auto blocked = nlohmann::json::parse(read_text(dir + "/run3/report.json"));
  for (const auto& row : blocked.at("workload").at("rows"))
    blocks[row.at("name").get<std::string>()] = row.at("tiling").at("co_blocks").get<std::uint64_t>();
  CHECK(blocks.at("conv1") > 1);
  CHECK(blocks.at("conv4") > 1);
  for (const char* layer : {"conv1", "pool1", "dw2", "conv3", "add3", "relu3", "conv4", "pool4", "fc5"}) {
    INFO("layer " << layer);
    const std::string want = read_text(dir + "/run0/tensors/" + std::string(layer) + ".npy");
    for (std::size_t i = 1; i < configs.size(); ++i) {
      INFO("config " << configs[i]);
      CHECK(read_text(dir + "/run" + std::to_string(i) + "/tensors/" + std::string(layer) + ".npy") == want);
    }
  }
}
