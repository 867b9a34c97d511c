#pragma once
#include <cstdint>
#include <vector>

#include "apps/frontend/workload/Workload.h"

namespace npusim {

// Who reads each tensor of a workload: how many layers, and the last of them in layer
// order. After its last reader a tensor is dead and its DRAM may hold another one
// (TraceEmitter::place_tensors).
struct TensorUses {
  std::uint32_t readers = 0;      // layers reading it (a layer reading it twice counts once)
  std::int64_t last_reader = -1;  // index of the last layer reading it; -1 = none (a network output)
};

struct WorkloadLiveness {
  TensorUses input;                 // the network input
  std::vector<TensorUses> outputs;  // per layer, its output
};

// One pass over the layers, through a name -> layer table: linear in the number of layers.
WorkloadLiveness tensor_liveness(const Workload& w);

}  // namespace npusim
