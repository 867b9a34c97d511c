// The depthwise-separable flow of seed001 §2.9 on the sparse units (issue 31), step by
// step against a straightforward reference: each channel convolved alone into an
// intermediate without ReLU (three channels, three intermediates, ¶145), a 1x1 combine
// on the 1x1/FC path, then ReLU; with and without the compute interconnect 920.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "models/sparse_cluster/DepthwiseSeparable.h"
#include "sparse_cluster/SparseClusterTestConfig.h"

using namespace npusim;

namespace {

// Channel `ch` of an NHWC map convolved with its own kh x kw kernel: a plain loop.
std::vector<std::int64_t> reference_depthwise(const ConvShape& g, const std::vector<std::int8_t>& x,
                                              const std::vector<std::int8_t>& k, std::uint32_t ch) {
  std::vector<std::int64_t> out;
  for (long oy = 0; oy < long(g.ho()); ++oy)
    for (long ox = 0; ox < long(g.wo()); ++ox) {
      std::int64_t s = 0;
      for (long a = 0; a < long(g.kh); ++a)
        for (long b = 0; b < long(g.kw); ++b) {
          const long y = oy * g.sh - long(g.pad_top) + a, xx = ox * g.sw - long(g.pad_left) + b;
          if (y >= 0 && xx >= 0 && y < long(g.hi) && xx < long(g.wi))
            s += std::int64_t(x[(y * g.wi + xx) * g.ci + ch]) * k[(ch * g.kh + a) * g.kw + b];
        }
      out.push_back(s);
    }
  return out;
}

}  // namespace

TEST_CASE("seed001 §2.9: the depthwise-separable flow's steps: per-channel intermediates without ReLU, a 1x1 "
          "combine, then ReLU",
          "[sparse][seed001][depthwise]") {
  std::mt19937 rng(2911);
  for (int trial = 0; trial < 30; ++trial) {
    ConvShape g;
    g.kh = g.kw = 1 + rng() % 7;
    g.sh = g.sw = 1 + rng() % 2;
    g.hi = g.kh + rng() % 12;
    g.wi = g.kw + rng() % 12;
    g.ci = g.co = trial == 0 ? 3 : 1 + rng() % 5;  // trial 0: the seed's three colour channels
    g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = g.kh / 2;
    const std::uint32_t co = 1 + rng() % 6;
    const double zeros = (rng() % 20) * 0.05;
    const auto x = test::random_values(rng, std::size_t(g.hi) * g.wi * g.ci, zeros);
    const auto dwk = test::random_values(rng, std::size_t(g.ci) * g.kh * g.kw, zeros / 2);
    const auto pwk = test::random_values(rng, std::size_t(co) * g.ci, zeros / 2);
    const auto link = trial % 2 ? ComputeInterconnectKind::Benes : ComputeInterconnectKind::None;
    const SparseClusterConfig cfg = test::cluster(4, link, test::ports_for(g.kh, g.kw));
    CAPTURE(trial, g.to_string(), co, zeros, int(link));
    const auto steps = depthwise_separable(cfg, g, compress_map(x.data(), g.hi, g.wi, g.ci), dwk, pwk, co);
    // Steps 1-2: one intermediate per channel, each the channel's own convolution, and
    // no ReLU on it (negative sums stay).
    REQUIRE(steps.intermediates.size() == g.ci);
    for (std::uint32_t ch = 0; ch < g.ci; ++ch) REQUIRE(steps.intermediates[ch] == reference_depthwise(g, x, dwk, ch));
    // Step 3: the 1x1 combine of the intermediates.
    const std::size_t points = std::size_t(g.ho()) * g.wo();
    std::vector<std::int64_t> combined(points * co, 0);
    for (std::size_t p = 0; p < points; ++p)
      for (std::uint32_t o = 0; o < co; ++o)
        for (std::uint32_t ch = 0; ch < g.ci; ++ch)
          combined[p * co + o] += steps.intermediates[ch][p] * pwk[o * g.ci + ch];
    REQUIRE(steps.pointwise == combined);
    // Step 4: ReLU on the combined map only.
    for (std::size_t i = 0; i < combined.size(); ++i) REQUIRE(steps.output[i] == std::max<std::int64_t>(0, combined[i]));
    CHECK(steps.intermediate_bytes == 4 * points * g.ci);
  }
}

TEST_CASE("seed001 ¶211: the intermediates keep their negative sums, sparsity appears after the pointwise ReLU",
          "[sparse][seed001][depthwise]") {
  std::mt19937 rng(211);
  ConvShape g;
  g.hi = g.wi = 16;
  g.kh = g.kw = 3;
  g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 1;
  g.ci = g.co = 3;
  const auto x = test::random_values(rng, 16 * 16 * 3, 0.5);
  const auto dwk = test::random_values(rng, 27, 0.0);
  const auto pwk = test::random_values(rng, 4 * 3, 0.0);
  const auto steps = depthwise_separable(test::cluster(4, ComputeInterconnectKind::None, test::ports_for(3, 3)), g,
                                         compress_map(x.data(), 16, 16, 3), dwk, pwk, 4);
  std::uint64_t negative = 0;
  for (const auto& m : steps.intermediates) negative += std::count_if(m.begin(), m.end(), [](auto v) { return v < 0; });
  CHECK(negative > 0);
  const auto out_zeros = std::count(steps.output.begin(), steps.output.end(), 0);
  // The intermediates are denser than the input was (50 % zeros); ReLU brings zeros back.
  CHECK(steps.intermediate_nonzeros > 16 * 16 * 3 / 2);
  CHECK(double(out_zeros) / steps.output.size() > 0.25);
  CHECK(steps.depthwise_cycles > 0);
  CHECK(steps.pointwise_cycles > 0);
}
