#pragma once
#include <cstdint>
#include <vector>

namespace npusim {

// Int8 weights with one power-of-two scale per tensor (docs/workload-format.md, ONNX):
// scale = 2^exponent, the smallest power of two with max|w| / scale <= 127, and
// q = round(w / scale) (half away from zero). A power of two keeps every activation
// scale a power of two, so an add's inputs can be brought to one scale by shifts.
struct QuantizedWeights {
  std::vector<std::int8_t> values;
  int exponent = 0;
  // The layer's bias per output channel in accumulator steps (2^accumulator_exponent, the
  // input's scale times the weights'), added before the requantization shift; empty = none.
  std::vector<std::int32_t> bias;
  int accumulator_exponent = 0;
};
QuantizedWeights quantize_weights(const std::vector<double>& w);

// Adds a float bias (one value per output channel) to q.bias in q's accumulator steps,
// rounded half away from zero and saturated to int32. A bias of zeros leaves q.bias empty.
void add_accumulator_bias(QuantizedWeights& q, const std::vector<double>& bias);

// ONNX conv weights [co, ci, kh, kw] in npusim's order: [co, kh, kw, ci], or for a
// depthwise conv ([c, 1, kh, kw]) [kh, kw, c]. Reordered once quantized (one scale per
// tensor, so the order does not matter to the values): 1 byte a weight to move, not 8.
std::vector<std::int8_t> conv_weights_to_nhwc(const std::vector<std::int8_t>& oihw, std::uint32_t co,
                                              std::uint32_t ci, std::uint32_t kh, std::uint32_t kw, bool depthwise);

// Folds an inference BatchNormalization into the conv before it: per output channel,
// w' = w * gamma / sqrt(var + eps) and b' = (b - mean) * gamma / sqrt(var + eps) + beta.
// `weights` are [co, ...] in any order within a channel; `bias` has co entries.
void fold_batch_norm(std::vector<double>& weights, std::vector<double>& bias, const std::vector<double>& gamma,
                     const std::vector<double>& beta, const std::vector<double>& mean, const std::vector<double>& var,
                     double epsilon);

}  // namespace npusim
