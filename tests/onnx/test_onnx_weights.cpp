// The importer's weight path, rewritten for speed (issue 34: ResNet-50's import), against
// the straightforward formulas it replaced: q = clamp(round(ldexp(w, -e)), -127, 127) with
// std::round, and the [co, ci, kh, kw] -> [co, kh, kw, ci] reorder element by element.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "apps/frontend/onnx/OnnxWeights.h"

namespace {

std::vector<std::int8_t> reference_steps(const std::vector<double>& w, int exponent) {
  std::vector<std::int8_t> out;
  for (double v : w) out.push_back(std::int8_t(std::clamp(std::round(std::ldexp(v, -exponent)), -127.0, 127.0)));
  return out;
}

// Weights on and next to the half steps, where rounding half away from zero shows.
std::vector<double> tricky_weights(double scale, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> any(-127.0, 127.0);
  std::vector<double> w;
  for (int k = -127; k <= 126; ++k) {
    const double half = k + 0.5;
    for (double v : {half, std::nextafter(half, 0.0), std::nextafter(half, 1e9), -half, double(k)})
      w.push_back(v * scale);
  }
  for (int i = 0; i < 5000; ++i) w.push_back(any(gen) * scale);
  w.push_back(127.0 * scale);  // the peak
  return w;
}

}  // namespace

TEST_CASE("onnx weights: quantization equals clamp(round(ldexp)) on ties and at every scale", "[onnx][weights]") {
  for (double scale : {1.0, 0.015625, 3.0e-3, 7.5, 1e-300, 4e-310, 1e300}) {
    const std::vector<double> w = tricky_weights(scale, 7);
    const npusim::QuantizedWeights q = npusim::quantize_weights(w);
    INFO("scale " << scale << ", exponent " << q.exponent);
    REQUIRE(std::ldexp(127.0 * scale, -q.exponent) <= 127.0);
    REQUIRE(std::ldexp(127.0 * scale, -q.exponent + 1) > 127.0);
    CHECK(q.values == reference_steps(w, q.exponent));
  }
}

TEST_CASE("onnx weights: the peak is found in any position and the all-zero tensor keeps exponent 0", "[onnx][weights]") {
  for (std::size_t at = 0; at < 9; ++at) {
    std::vector<double> w(9, 0.25);
    w[at] = -100.0;
    const npusim::QuantizedWeights q = npusim::quantize_weights(w);
    CHECK(q.exponent == 0);
    CHECK(q.values[at] == -100);
  }
  const npusim::QuantizedWeights zeros = npusim::quantize_weights(std::vector<double>(5, 0.0));
  CHECK(zeros.exponent == 0);
  CHECK(zeros.values == std::vector<std::int8_t>(5, 0));
}

TEST_CASE("onnx weights: conv weights reorder from [co, ci, kh, kw] to [co, kh, kw, ci] and depthwise to [kh, kw, c]",
          "[onnx][weights]") {
  const std::uint32_t co = 3, ci = 4, kh = 2, kw = 3;
  std::vector<std::int8_t> oihw(co * ci * kh * kw);
  for (std::size_t i = 0; i < oihw.size(); ++i) oihw[i] = std::int8_t(i % 251 - 120);
  const std::vector<std::int8_t> nhwc = npusim::conv_weights_to_nhwc(oihw, co, ci, kh, kw, false);
  for (std::uint32_t o = 0; o < co; ++o)
    for (std::uint32_t i = 0; i < ci; ++i)
      for (std::uint32_t y = 0; y < kh; ++y)
        for (std::uint32_t x = 0; x < kw; ++x)
          CHECK(nhwc[((o * kh + y) * kw + x) * ci + i] == oihw[((o * ci + i) * kh + y) * kw + x]);
  const std::vector<std::int8_t> depthwise = npusim::conv_weights_to_nhwc(oihw, co * ci, 1, kh, kw, true);
  for (std::uint32_t c = 0; c < co * ci; ++c)
    for (std::uint32_t t = 0; t < kh * kw; ++t) CHECK(depthwise[t * co * ci + c] == oihw[c * kh * kw + t]);
}
