#include "apps/frontend/onnx/OnnxWeights.h"

#include <algorithm>
#include <cmath>

namespace npusim {

QuantizedWeights quantize_weights(const std::vector<double>& w) {
  double peak = 0;
  for (double v : w) peak = std::max(peak, std::fabs(v));
  QuantizedWeights q;
  if (peak > 0) {
    q.exponent = int(std::ceil(std::log2(peak / 127.0)));
    if (std::ldexp(peak, -q.exponent) > 127.0) ++q.exponent;  // log2 rounding at an exact power
  }
  q.values.reserve(w.size());
  for (double v : w) q.values.push_back(std::int8_t(std::clamp(std::round(std::ldexp(v, -q.exponent)), -127.0, 127.0)));
  return q;
}

std::vector<double> conv_weights_to_nhwc(const std::vector<double>& oihw, std::uint32_t co, std::uint32_t ci,
                                         std::uint32_t kh, std::uint32_t kw, bool depthwise) {
  std::vector<double> out(oihw.size());
  const std::uint64_t taps = std::uint64_t(kh) * kw;
  for (std::uint64_t o = 0; o < co; ++o)
    for (std::uint64_t i = 0; i < ci; ++i)
      for (std::uint64_t t = 0; t < taps; ++t) {
        const double v = oihw[(o * ci + i) * taps + t];
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
