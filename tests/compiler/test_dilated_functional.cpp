// Dilated convolutions in functional mode: the compiler spreads each kernel's taps
// in DRAM (zeros between them) and runs a plain conv over the dilated kernel. The
// reference here walks the dilated window directly, without any expanded kernel.
#include <catch2/catch.hpp>

#include <map>

#include <nlohmann/json.hpp>

#include "compiler/ReferenceLayers.h"
#include "e2e/NpusimProcess.h"

using namespace npusim::layer_reference;

namespace {

struct Window {
  std::uint32_t kh, kw, sh, sw, dilation;
  std::array<std::uint32_t, 4> pad;  // top, bottom, left, right
};

// y[n,oh,ow,o] = sum over taps (i, j) and channels of x[n, oh*sh + i*d - top, ow*sw + j*d - left, .] * k[...].
Tensor dilated_conv(const Tensor& x, const Tensor& k, std::uint32_t co, const Window& win, bool depthwise) {
  const std::uint32_t ekh = (win.kh - 1) * win.dilation + 1, ekw = (win.kw - 1) * win.dilation + 1;
  Tensor y{x.n, (x.h + win.pad[0] + win.pad[1] - ekh) / win.sh + 1, (x.w + win.pad[2] + win.pad[3] - ekw) / win.sw + 1,
           co, {}};
  const std::uint32_t shift = npusim::default_requant_shift(std::uint64_t(win.kh) * win.kw * (depthwise ? 1 : x.c));
  for (std::uint32_t b = 0; b < x.n; ++b)
    for (std::uint32_t oh = 0; oh < y.h; ++oh)
      for (std::uint32_t ow = 0; ow < y.w; ++ow)
        for (std::uint32_t o = 0; o < co; ++o) {
          std::int64_t acc = 0;
          for (std::uint32_t i = 0; i < win.kh; ++i)
            for (std::uint32_t j = 0; j < win.kw; ++j) {
              const long h = long(oh * win.sh + i * win.dilation) - win.pad[0];
              const long w = long(ow * win.sw + j * win.dilation) - win.pad[2];
              if (h < 0 || w < 0 || h >= long(x.h) || w >= long(x.w)) continue;
              const std::size_t at = ((std::size_t(b) * x.h + h) * x.w + w) * x.c;
              if (depthwise)
                acc += std::int64_t(x.v[at + o]) * k.v[(std::size_t(i) * win.kw + j) * x.c + o];
              else
                for (std::uint32_t c = 0; c < x.c; ++c)
                  acc += std::int64_t(x.v[at + c]) * k.v[((std::size_t(o) * win.kh + i) * win.kw + j) * x.c + c];
            }
          y.v.push_back(requant(acc, shift, false));
        }
  return y;
}

}  // namespace

TEST_CASE("compiler: dilated conv and depthwise layers equal a direct dilated reference", "[compiler][e2e]") {
  const std::string dir = scratch_dir("dilated-functional");
  write_text(dir + "/dilated.json", R"({"name": "dilated", "batch": 2, "input": {"h": 13, "w": 11, "c": 6}, "seed": 11,
    "layers": [
      {"name": "c1", "type": "conv", "co": 9, "k": 3, "dilation": 2, "padding": 2},
      {"name": "d2", "type": "conv", "groups": 9, "co": 9, "kh": 3, "kw": 2, "dilation": 3, "padding": [3, 3, 1, 2]},
      {"name": "c3", "type": "conv", "co": 12, "kh": 2, "kw": 3, "dilation": 2, "stride": 2}
    ]})");
  // Default chip, and four cores with a 1 KiB WRAM: c1 and c3 split into blocks of 3 channels.
  write_text(dir + "/blocked.json", "{\"extends\": \"" + source_path("configs/smp-2x2.json") +
                                        "\", \"core\": {\"wram\": {\"capacity_bytes\": 1024}}}");
  for (const std::string& config : {source_path("configs/default.json"), dir + "/blocked.json"}) {
    INFO("config " << config);
    const std::string out = dir + "/run-" + std::to_string(config.size());
    // Data-parallel: a hybrid split would give each core few enough channels for one block.
    auto r = run_npusim({"run", "--quiet", "--functional", "--workload", dir + "/dilated.json", "--config", config,
                         "--out", out, "--split", "data"});
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto report = nlohmann::json::parse(read_text(out + "/report.json"));
    std::uint64_t most_blocks = 0;
    for (const auto& row : report.at("workload").at("rows"))
      most_blocks = std::max(most_blocks, row.at("tiling").at("co_blocks").get<std::uint64_t>());
    CHECK((most_blocks > 1) == (config == dir + "/blocked.json"));
    auto t = [&](const std::string& name) { return load(out + "/tensors/" + name + ".npy"); };
    // The dumped weights are the dense kernels the workload describes.
    const Tensor w1 = t("c1.weights");
    CHECK((w1.n == 9 && w1.h == 3 && w1.w == 3 && w1.c == 6));
    std::map<std::string, Tensor> want;
    want["c1"] = dilated_conv(t("input"), w1, 9, {3, 3, 1, 1, 2, {2, 2, 2, 2}}, false);
    want["d2"] = dilated_conv(want["c1"], t("d2.weights"), 9, {3, 2, 1, 1, 3, {3, 3, 1, 2}}, true);
    want["c3"] = dilated_conv(want["d2"], t("c3.weights"), 12, {2, 3, 2, 2, 2, {0, 0, 0, 0}}, false);
    for (const auto& [name, ref] : want) {
      INFO("layer " << name);
      const Tensor got = t(name);
      CHECK(got.h == ref.h);
      CHECK(got.w == ref.w);
      CHECK(got.c == ref.c);
      CHECK(got.v == ref.v);
      CHECK(std::count(got.v.begin(), got.v.end(), 0) < std::ptrdiff_t(got.v.size()));
    }
  }
}
