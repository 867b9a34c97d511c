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
  return {V::kSection, "vector", V{}, vec.keys, nullptr};
}

}  // namespace npusim
