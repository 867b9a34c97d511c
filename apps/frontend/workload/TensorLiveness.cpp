#include "apps/frontend/workload/TensorLiveness.h"

#include <string>
#include <unordered_map>

namespace npusim {

WorkloadLiveness tensor_liveness(const Workload& w) {
  WorkloadLiveness live;
  live.outputs.resize(w.layers.size());
  std::unordered_map<std::string, TensorUses*> by_name = {{"input", &live.input}};
  by_name.reserve(w.layers.size() + 1);
  for (std::size_t i = 0; i < w.layers.size(); ++i) {
    for (const auto& name : w.layers[i].inputs) {
      auto it = by_name.find(name);
      if (it == by_name.end()) continue;  // the reader checked every name; independent layers read none
      TensorUses& uses = *it->second;
      if (uses.last_reader == std::int64_t(i)) continue;  // this layer reads it twice (add x + x)
      ++uses.readers;
      uses.last_reader = std::int64_t(i);
    }
    by_name[w.layers[i].name] = &live.outputs[i];
  }
  return live;
}

}  // namespace npusim
