#include "apps/frontend/onnx/OnnxWeights.h"

#include "apps/frontend/onnx/OnnxCalibration.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace npusim {

namespace {

// round(steps) half away from zero, clamped to +-127: the same as std::clamp(std::round(x),
// -127.0, 127.0) for every finite x, without libm's round (a third of ResNet-50's import).
std::int8_t int8_step(double steps) {
  const double x = std::clamp(steps, -128.0, 128.0);
  int whole = int(x);  // toward zero; x - whole is exact here
  const double rest = x - whole;
  if (rest >= 0.5) ++whole;
  if (rest <= -0.5) --whole;
  return std::int8_t(std::clamp(whole, -127, 127));
}

// max |v|, in four independent running maxima: one chain waited out maxsd's latency on
// every weight.
double peak_magnitude(const double* in, std::size_t count) {
  double peak[4] = {0, 0, 0, 0};
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4)
    for (std::size_t lane = 0; lane < 4; ++lane) peak[lane] = std::max(peak[lane], std::fabs(in[i + lane]));
  for (; i < count; ++i) peak[0] = std::max(peak[0], std::fabs(in[i]));
  return std::max(std::max(peak[0], peak[1]), std::max(peak[2], peak[3]));
}

}  // namespace

QuantizedWeights quantize_weights(const std::vector<double>& w) {
  // Raw pointers: through the vectors, every int8 store (which may alias anything) made
  // the loops reload w's bounds.
  const double* in = w.data();
  const std::size_t count = w.size();
  const double peak = peak_magnitude(in, count);
  QuantizedWeights q;
  q.exponent = int8_exponent(peak);
  // Multiplying by 2^-exponent is ldexp's exact result when that power is a normal double
  // (every |v| <= peak lands within 127 steps), and several times faster per weight.
  const bool normal_power = q.exponent >= -1022 && q.exponent <= 1022;
  const double step = normal_power ? std::ldexp(1.0, -q.exponent) : 0;
  q.values.resize(count);
  std::int8_t* out = q.values.data();
  if (normal_power)
    for (std::size_t i = 0; i < count; ++i) out[i] = int8_step(in[i] * step);
  else
    for (std::size_t i = 0; i < count; ++i) out[i] = int8_step(std::ldexp(in[i], -q.exponent));
  return q;
}

void add_accumulator_bias(QuantizedWeights& q, const std::vector<double>& bias) {
  if (std::all_of(bias.begin(), bias.end(), [](double b) { return b == 0; })) return;
  if (q.bias.empty()) q.bias.assign(bias.size(), 0);
  constexpr double kLow = std::numeric_limits<std::int32_t>::min(), kHigh = std::numeric_limits<std::int32_t>::max();
  for (std::size_t o = 0; o < bias.size(); ++o) {
    const double steps = std::round(std::ldexp(bias[o], -q.accumulator_exponent)) + q.bias[o];
    q.bias[o] = std::int32_t(std::clamp(steps, kLow, kHigh));
  }
}

std::vector<std::int8_t> conv_weights_to_nhwc(const std::vector<std::int8_t>& oihw, std::uint32_t co,
                                              std::uint32_t ci, std::uint32_t kh, std::uint32_t kw, bool depthwise) {
  std::vector<std::int8_t> out(oihw.size());
  const std::uint64_t taps = std::uint64_t(kh) * kw;
  for (std::uint64_t o = 0; o < co; ++o)
    for (std::uint64_t i = 0; i < ci; ++i)
      for (std::uint64_t t = 0; t < taps; ++t) {
        const std::int8_t v = oihw[(o * ci + i) * taps + t];
        if (depthwise)
          out[t * co + o] = v;  // ci == 1: one filter per channel
        else
          out[(o * taps + t) * ci + i] = v;
      }
  return out;
}

void fold_batch_norm(std::vector<double>& weights, std::vector<double>& bias, const std::vector<double>& gamma,
                     const std::vector<double>& beta, const std::vector<double>& mean, const std::vector<double>& var,
                     double epsilon) {
  const std::size_t co = bias.size();
  const std::size_t per_channel = weights.size() / co;
  for (std::size_t o = 0; o < co; ++o) {
    const double factor = gamma[o] / std::sqrt(var[o] + epsilon);
    for (std::size_t i = 0; i < per_channel; ++i) weights[o * per_channel + i] *= factor;
    bias[o] = (bias[o] - mean[o]) * factor + beta[o];
  }
}

}  // namespace npusim
