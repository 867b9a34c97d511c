#include "models/vector_unit/VectorUnitConfig.h"

namespace npusim {

CoreSection vector_unit_config_section() {
  using V = VectorUnitConfig;
  SectionFields<V> vec(V::kSection);
  std::vector<ConfigKey> keys;
  keys.push_back(queue_depth(vec("queue_depth", &V::queue_depth), 8, "vector instructions waiting to issue"));
  keys.push_back(bandwidth(vec("bytes_per_cycle", &V::bytes_per_cycle), 64, "vector unit throughput"));
  keys.push_back(integer(vec("pipeline_latency", &V::pipeline_latency), 8, within(0, 10000), "cycles",
                         "vector pipeline depth"));
  keys.push_back(number(vec("softmax_lane_ops", &V::softmax_lane_ops), 6, within(1, 1000), "lane ops per element",
                        "softmax cost: max, subtract, exponential, sum, reciprocal multiply (assumption)"));
  keys.push_back(number(vec("layernorm_lane_ops", &V::layernorm_lane_ops), 5, within(1, 1000), "lane ops per element",
                        "layer norm cost: mean, variance, subtract, scale (assumption)"));
  keys.push_back(number(vec("gelu_lane_ops", &V::gelu_lane_ops), 4, within(1, 1000), "lane ops per element",
                        "GELU cost: a polynomial or table evaluation (assumption)"));
  return {V::kSection, "vector", V{}, keys, nullptr};
}

}  // namespace npusim
