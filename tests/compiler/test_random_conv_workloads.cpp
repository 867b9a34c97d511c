// Randomized conv layers (odd channels, strides 1-4, kernels 1-7, asymmetric padding)
// compiled into bands on a small-NRAM four-core chip must equal the plain reference.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include <fmt/format.h>

#include "e2e/NpusimProcess.h"
#include "reference/ReferenceConv.h"
#include "apps/compiler/Workload.h"
#include "sim/tensor/Npy.h"

namespace {

std::vector<std::int8_t> int8s(const std::string& path) {
  npusim::NpyArray a = npusim::read_npy(path);
  return std::vector<std::int8_t>(a.data.begin(), a.data.end());
}

}  // namespace

TEST_CASE("compiler: random conv layers in bands on four cores equal the reference", "[compiler][e2e]") {
  std::mt19937 rng(20261122);
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
    layers += fmt::format(R"({}{{"name":"c{}","type":"conv","input":"input","co":{},"kh":{},"kw":{},"sh":{},"sw":{},"padding":[{},{},{},{}],"relu":{}}})",
                          i ? "," : "", i, s.co, s.kh, s.kw, s.sh, s.sw, s.pad_top, s.pad_bottom, s.pad_left,
                          s.pad_right, i % 3 == 0 ? "true" : "false");
  }
  const std::string dir = scratch_dir("random-conv");
  write_text(dir + "/w.json", fmt::format(R"({{"batch":2,"input":{{"h":{},"w":{},"c":{}}},"layers":[{}]}})", hi, wi,
                                          ci, layers));
  write_text(dir + "/small.json", "{\"extends\": \"" + source_path("configs/smp-2x2.json") +
                                      "\", \"core\": {\"nram\": {\"capacity_bytes\": 8192}}}");
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
}
