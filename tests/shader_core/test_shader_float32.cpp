// float32 through the shader core's modelled path: random single-tile convolutions
// (kernels 1-4, strides 1-3, padding, 1-3 images) written as traces, run with
// --functional, and compared bit for bit with the plain reference. Both readings
// of seed003 §2.6 are exercised: the unrolled tile and the compact one.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include <fmt/format.h>

#include "e2e/NpusimProcess.h"
#include "models/fetch_ml/AddressGenerator.h"
#include "reference/ReferenceConv.h"
#include "sim/tensor/Npy.h"

using namespace npusim;

namespace {

std::string operand(const char* space, std::uint64_t offset, const std::vector<std::uint64_t>& shape,
                    std::uint64_t pitch = 0) {
  return fmt::format(R"({{"space":"{}","offset":{},"shape":[{}],"dtype":"float32"{}}})", space, offset,
                     fmt::join(shape, ","), pitch ? fmt::format(R"(,"pitch":{})", pitch) : "");
}

// One image at a time: registers, filters, then per image its rows, multiply and return.
std::string single_tile_trace(const ConvShape& g, bool compact) {
  const std::uint64_t K = std::uint64_t(g.kh) * g.kw * g.ci, P = std::uint64_t(g.ho()) * g.wo();
  const std::uint64_t image_bytes = std::uint64_t(g.n) * g.hi * g.wi * g.ci * 4;
  const std::uint64_t weights_at = (image_bytes + 255) / 256 * 256, out_at = weights_at + 65536;
  std::string t = fmt::format(
      R"({{"format":"npusim-trace","version":1,"inputs":[)"
      R"({{"name":"x","space":"dram","offset":0,"shape":[{},{},{},{}],"dtype":"float32","random_seed":3}},)"
      R"({{"name":"w","space":"dram","offset":{},"shape":[{},{},{},{}],"dtype":"float32","random_seed":4}}],)"
      R"("outputs":[{{"name":"x","space":"dram","offset":0,"shape":[{},{},{},{}],"dtype":"float32"}},)"
      R"({{"name":"w","space":"dram","offset":{},"shape":[{},{},{},{}],"dtype":"float32"}},)"
      R"({{"name":"y","space":"dram","offset":{},"shape":[{},{},{},{}],"dtype":"float32"}}]}})"
      "\n",
      g.n, g.hi, g.wi, g.ci, weights_at, g.co, g.kh, g.kw, g.ci, g.n, g.hi, g.wi, g.ci, weights_at, g.co, g.kh, g.kw,
      g.ci, out_at, g.n, g.ho(), g.wo(), g.co);
  int id = 0;
  const std::vector<std::pair<const char*, std::uint64_t>> regs = {
      {"ifm_x", g.wi}, {"ifm_y", g.hi}, {"ifm_components", g.ci}, {"ifm_stride", g.sw}, {"ifm_stride_y", g.sh},
      {"ifm_depth_bits", 32}, {"filters", g.co}, {"filter_x", g.kw}, {"filter_y", g.kh}, {"out_base", out_at},
      {"ifm_base", 0}, {"weight_base", weights_at}, {"ifm_batch", g.n}, {"pad_top", g.pad_top},
      {"pad_bottom", g.pad_bottom}, {"pad_left", g.pad_left}, {"pad_right", g.pad_right}};
  for (const auto& [name, value] : regs)
    t += fmt::format(R"({{"id":{},"op":"ml_set","params":{{"register":"{}","value":{}}}}})" "\n", id++, name, value);
  const std::uint64_t w_rf = 0, x_rf = (g.co * K * 4 + 63) / 64 * 64;
  t += fmt::format(R"({{"id":{},"op":"fetch_ml","inputs":[{}],"outputs":[{}],"params":{{"data":"weights","filters":[0,{}]}}}})" "\n",
                   id++, operand("dram", weights_at, {g.co, g.kh, g.kw, g.ci}), operand("rf", w_rf, {g.co, K}), g.co);
  const int weights = id - 1;
  int previous = -1;
  for (std::uint32_t n = 0; n < g.n; ++n) {
    const InputRows rows = AddressGenerator::input_rows(g, {n, 0, P});
    const std::vector<std::uint64_t> row_shape = {rows.count, g.wi, g.ci};
    const std::vector<std::uint64_t> tile = compact ? row_shape : std::vector<std::uint64_t>{P, K};
    const std::uint64_t tile_bytes = (compact ? rows.count * g.wi * g.ci : P * K) * 4;
    const std::uint64_t result_rf = x_rf + (tile_bytes + 63) / 64 * 64;
    const std::uint64_t from = (std::uint64_t(n) * g.hi + rows.first) * g.wi * g.ci * 4;
    const std::string deps = previous >= 0 ? fmt::format(R"(,"deps":[{}])", previous) : "";
    t += fmt::format(R"({{"id":{},"op":"fetch_ml","inputs":[{}],"outputs":[{}],"params":{{"data":"ifm","image":{},"positions":[0,{}]}}{}}})" "\n",
                     id++, operand("dram", from, row_shape), operand("rf", x_rf, tile), n, P, deps);
    t += fmt::format(R"({{"id":{},"op":"ml_matmul","inputs":[{},{}],"outputs":[{}],"params":{{"image":{},"positions":[0,{}],"filters":[0,{}]}},"deps":[{},{}]}})" "\n",
                     id, operand("rf", x_rf, tile), operand("rf", w_rf, {g.co, K}), operand("rf", result_rf, {P, g.co}),
                     n, P, g.co, id - 1, weights);
    ++id;
    t += fmt::format(R"({{"id":{},"op":"ml_return","inputs":[{}],"outputs":[{}],"params":{{"image":{},"positions":[0,{}],"filters":[0,{}]}},"deps":[{}]}})" "\n",
                     id, operand("rf", result_rf, {P, g.co}), operand("dram", out_at + n * P * g.co * 4, {P, g.co}), n,
                     P, g.co, id - 1);
    previous = id++;
  }
  return t;
}

std::vector<float> floats(const std::string& path) {
  NpyArray a = read_npy(path);
  std::vector<float> v(a.data.size() / 4);
  std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
}

}  // namespace

TEST_CASE("shader core: float32 convolutions equal the reference bit for bit, both unroll sites",
          "[shader][e2e]") {
  std::mt19937 rng(20261123);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 6; ++trial) {
    ConvShape g;
    g.n = pick(1, 3), g.hi = pick(3, 9), g.wi = pick(3, 9), g.ci = pick(1, 5), g.co = pick(1, 6);
    g.kh = pick(1, std::min(4, int(g.hi))), g.kw = pick(1, std::min(4, int(g.wi)));
    g.sh = pick(1, 3), g.sw = pick(1, 3);
    g.pad_top = pick(0, g.kh - 1), g.pad_bottom = pick(0, g.kh - 1);
    g.pad_left = pick(0, g.kw - 1), g.pad_right = pick(0, g.kw - 1);
    g.element_bytes = 4;
    const bool compact = trial % 2 == 0;
    INFO(g.to_string() << (compact ? " compact" : " unrolled"));
    const std::string dir = scratch_dir(fmt::format("shader-f32-{}", trial));
    write_text(dir + "/t.jsonl", single_tile_trace(g, compact));
    auto r = run_npusim({"run", "--quiet", "--functional", "--trace", dir + "/t.jsonl", "--config",
                         source_path("configs/gpu-shader.json"), "--out", dir + "/run"});
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto x = floats(dir + "/run/tensors/x.npy"), w = floats(dir + "/run/tensors/w.npy");
    const auto want = reference::direct_conv<float, float>(g, x, w);
    const auto got = floats(dir + "/run/tensors/y.npy");
    REQUIRE(got.size() == want.size());
    CHECK(std::memcmp(got.data(), want.data(), got.size() * 4) == 0);
  }
}
