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
  return {V::kSection, "vector", V{}, keys, nullptr};
}

}  // namespace npusim
