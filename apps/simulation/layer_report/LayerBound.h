#pragma once
#include <string>
#include <utility>
#include <vector>

#include "apps/compiler/emit/CompiledLayer.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// What limits a layer: of the resources it uses, the one whose own work takes longest
// (its busiest instance: a DRAM channel, a DMA, a link, a cache port), a lower bound on
// the layer's cycles. Each figure is the bytes the compiler sent through that resource
// over its peak rate; compute is the layer's MACs over its cores' peak, and "dram" the
// compulsory bytes (each tensor through DRAM once) over every channel together, the
// classic roofline's two terms.
struct ResourceLoad {
  std::string resource;  // "compute", "dram", "channel 2", "load dma 5", "store dma 5", "link 1", "link 0-3", "cache 1"
  double cycles = 0;
};

struct LayerBound {
  ResourceLoad limit;                   // the largest of `busiest` (the earlier one on a tie)
  // Each kind of resource's busiest instance, when it was used: compute, channel, load and
  // store DMA, link, cache, then DRAM as a whole.
  std::vector<ResourceLoad> busiest;
};

// `compute_cycles` and `dram_cycles`: the classic roofline's terms for the layer.
LayerBound layer_bound(double compute_cycles, double dram_cycles, const LayerTraffic& traffic,
                       const HardwareConfig& hw);

}  // namespace npusim
