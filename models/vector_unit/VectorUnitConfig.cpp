#include "models/vector_unit/VectorUnitConfig.h"

namespace npusim {

CoreSection vector_unit_config_section() {
  using V = VectorUnitConfig;
  EngineSectionKeys<V> vec("", 8, "vector instructions waiting to issue");
  vec.add(bandwidth(vec("bytes_per_cycle", &V::bytes_per_cycle), 64, "vector unit throughput"));
  vec.add(latency(vec("pipeline_latency", &V::pipeline_latency), 8, "vector pipeline depth", kMaxBlockLatency));
  vec.add(number(vec("softmax_lane_ops", &V::softmax_lane_ops), 6, within(1, 1000), "lane ops per element",
                 "softmax cost: max, subtract, exponential, sum, reciprocal multiply (assumption)"));
  vec.add(number(vec("layernorm_lane_ops", &V::layernorm_lane_ops), 5, within(1, 1000), "lane ops per element",
                 "layer norm cost: mean, variance, subtract, scale (assumption)"));
  vec.add(number(vec("gelu_lane_ops", &V::gelu_lane_ops), 4, within(1, 1000), "lane ops per element",
                 "GELU cost: a polynomial or table evaluation (assumption)"));
  vec.add(number(vec("sigmoid_lane_ops", &V::sigmoid_lane_ops), 4, within(1, 1000), "lane ops per element",
                 "sigmoid cost: exponential, add, reciprocal (assumption)"));
  vec.add(number(vec("hardsigmoid_lane_ops", &V::hardsigmoid_lane_ops), 2, within(1, 1000), "lane ops per element",
                 "hard sigmoid cost: multiply-add, clamp (assumption)"));
  vec.add(number(vec("hardswish_lane_ops", &V::hardswish_lane_ops), 3, within(1, 1000), "lane ops per element",
                 "hard swish cost: multiply-add, clamp, multiply (assumption)"));
  vec.add(number(vec("silu_lane_ops", &V::silu_lane_ops), 5, within(1, 1000), "lane ops per element",
                 "SiLU cost: a sigmoid and a multiply (assumption)"));
  vec.add(number(vec("tanh_lane_ops", &V::tanh_lane_ops), 4, within(1, 1000), "lane ops per element",
                 "tanh cost: as the sigmoid it is a rescaling of (assumption)"));
  vec.add(number(vec("mul_lane_ops", &V::mul_lane_ops), 2, within(1, 1000), "lane ops per element",
                 "product of two int8 tensors: multiply, round and shift (assumption)"));
  vec.add(number(vec("bilinear_lane_ops", &V::bilinear_lane_ops), 4, within(1, 1000), "lane ops per element",
                 "bilinear upsampling: a multiply-add for each of four taps, the rounding folded in (assumption)"));
  return {V::kSection, "vector", V{}, vec.keys, nullptr};
}

}  // namespace npusim
