// Upsampling (docs/workload-format.md, "Upsampling") in functional mode over randomized
// shapes, sizes, coordinate modes and chips, checked against a plain reference written
// from ONNX Resize's formulas and computed from the tensors the run dumps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "compiler/FunctionalRun.h"
#include "compiler/ReferenceLayers.h"
#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"

using namespace npusim::layer_reference;

namespace {

struct Case {
  std::string mode, coords, nearest;
};

// Output index o's source coordinate, num / den, by ONNX Resize's formula with scale out / in.
std::pair<std::int64_t, std::int64_t> source(const std::string& coords, std::int64_t in, std::int64_t out,
                                             std::int64_t o) {
  if (coords == "asymmetric") return {o * in, out};
  if ((coords == "align_corners" || coords == "pytorch_half_pixel") && out == 1) return {0, 1};
  if (coords == "align_corners") return {o * (in - 1), out - 1};
  return {(2 * o + 1) * in - out, 2 * out};
}

std::int64_t nearest_index(const Case& k, std::int64_t in, std::int64_t out, std::int64_t o) {
  const auto [num, den] = source(k.coords, in, out, o);
  const double x = double(num) / double(den);
  std::int64_t i = std::int64_t(std::floor(x));
  const std::int64_t twice_rest = 2 * (num - i * den);  // 2 · (x − floor x) · den, exact
  if (k.nearest == "ceil" && twice_rest > 0) ++i;
  if (k.nearest == "round_prefer_floor" && twice_rest > den) ++i;
  if (k.nearest == "round_prefer_ceil" && twice_rest >= den) ++i;
  return std::clamp<std::int64_t>(i, 0, in - 1);
}

// The coordinate clamped into [0, in − 1] as (index, numerator of the fraction, den).
std::array<std::int64_t, 3> linear_source(const Case& k, std::int64_t in, std::int64_t out, std::int64_t o) {
  auto [num, den] = source(k.coords, in, out, o);
  num = std::clamp<std::int64_t>(num, 0, (in - 1) * den);
  return {num / den, num % den, den};
}

std::int8_t at(const Tensor& x, std::int64_t n, std::int64_t y, std::int64_t w, std::int64_t c) {
  return x.v[((std::size_t(n) * x.h + std::size_t(y)) * x.w + std::size_t(w)) * x.c + std::size_t(c)];
}

// Bilinear: the real mean of the four neighbours (exact in integers), rounded half away from zero.
std::int8_t bilinear(const Case& k, const Tensor& x, std::uint32_t oh, std::uint32_t ow, std::int64_t n,
                     std::int64_t oy, std::int64_t ox, std::int64_t c) {
  const auto [y0, fy, dy] = linear_source(k, x.h, oh, oy);
  const auto [x0, fx, dx] = linear_source(k, x.w, ow, ox);
  const std::int64_t y1 = std::min<std::int64_t>(y0 + 1, x.h - 1), x1 = std::min<std::int64_t>(x0 + 1, x.w - 1);
  const std::int64_t sum = (dy - fy) * (dx - fx) * at(x, n, y0, x0, c) + (dy - fy) * fx * at(x, n, y0, x1, c) +
                           fy * (dx - fx) * at(x, n, y1, x0, c) + fy * fx * at(x, n, y1, x1, c);
  const std::int64_t den = dy * dx;
  return std::int8_t(sum >= 0 ? (2 * sum + den) / (2 * den) : -((-2 * sum + den) / (2 * den)));
}

Tensor reference(const Case& k, const Tensor& x, std::uint32_t oh, std::uint32_t ow) {
  Tensor y{x.n, oh, ow, x.c, {}};
  for (std::int64_t n = 0; n < x.n; ++n)
    for (std::int64_t oy = 0; oy < oh; ++oy)
      for (std::int64_t ox = 0; ox < ow; ++ox)
        for (std::int64_t c = 0; c < x.c; ++c)
          y.v.push_back(k.mode == "bilinear" ? bilinear(k, x, oh, ow, n, oy, ox, c)
                                             : at(x, n, nearest_index(k, x.h, oh, oy), nearest_index(k, x.w, ow, ox), c));
  return y;
}

}  // namespace

TEST_CASE("compiler: upsample, nearest and bilinear, equals a plain reference over randomized shapes",
          "[compiler][upsample][e2e]") {
  std::mt19937 rng(47);
  const std::string dir = scratch_dir("upsample");
  const char* coords[] = {"half_pixel", "pytorch_half_pixel", "asymmetric", "align_corners"};
  const char* rounding[] = {"floor", "round_prefer_floor", "round_prefer_ceil", "ceil"};
  const char* configs[] = {"configs/default.json", "configs/smp-2x2.json", "configs/numa-2x2.json"};
  for (int trial = 0; trial < 6; ++trial) {
    const std::uint32_t h = 1 + rng() % 12, w = 1 + rng() % 12, c = 1 + rng() % 40, batch = 1 + rng() % 3;
    // Integer factors, then any size (non-integer ratios, a downscale, 1 x 1 maps).
    const std::uint32_t oh = trial < 2 ? h * (1 + rng() % 4) : 1 + rng() % 40;
    const std::uint32_t ow = trial < 2 ? w * (1 + rng() % 4) : 1 + rng() % 40;
    const Case k{trial % 2 ? "nearest" : "bilinear", coords[rng() % 4], rounding[rng() % 4]};
    INFO(fmt::format("trial {}: {}x{}x{} -> {}x{} batch {} {} {} {}", trial, h, w, c, oh, ow, batch, k.mode, k.coords,
                     k.nearest));
    const std::string path = dir + fmt::format("/up{}.json", trial);
    write_text(path, fmt::format(R"({{"batch": {}, "seed": {}, "input": {{"h": {}, "w": {}, "c": {}}}, "layers": [
      {{"name": "up", "type": "upsample", "mode": "{}", "h": {}, "w": {}, "coordinates": "{}", "nearest_mode": "{}"}}]}})",
                                 batch, trial + 5, h, w, c, k.mode, oh, ow, k.coords, k.nearest));
    const std::string t = run_functional(path, source_path(configs[trial % 3]), dir + fmt::format("/out{}", trial));
    const Tensor x = load(t + "input.npy");
    const Tensor got = load(t + "up.npy");
    const Tensor want = reference(k, x, oh, ow);
    REQUIRE(got.v.size() == want.v.size());
    CHECK(got.v == want.v);
  }
}

TEST_CASE("compiler: a bilinear upsample by 2 of a large map is banded and equals the reference",
          "[compiler][upsample][e2e]") {
  // 64 x 64 x 64 -> 128 x 128: the output alone is 1 MiB, more than NRAM, so bands read
  // overlapping input rows (the bilinear halo).
  const std::string dir = scratch_dir("upsample-banded");
  const std::string path = dir + "/up.json";
  write_text(path, R"({"seed": 3, "input": {"h": 64, "w": 64, "c": 64}, "layers": [
    {"name": "up", "type": "upsample", "mode": "bilinear", "scale": 2}]})");
  const std::string t = run_functional(path, source_path("configs/smp-2x2.json"), dir + "/out");
  const Tensor x = load(t + "input.npy");
  CHECK(load(t + "up.npy").v == reference({"bilinear", "half_pixel", "floor"}, x, 128, 128).v);
}

TEST_CASE("workload: an upsample of an unknown mode exits 2 naming the layer", "[compiler][upsample][e2e]") {
  const std::string dir = scratch_dir("upsample-bad");
  const std::string path = dir + "/bad.json";
  write_text(path, R"({"input": {"h": 4, "w": 4, "c": 8}, "layers": [
    {"name": "up", "type": "upsample", "mode": "bicubic"}]})");
  check_refused(run_npusim({"compile", "--workload", path, "-o", dir + "/t.jsonl"}), {"(up)", "mode"});
}
