#pragma once
#include <systemc>

#include "models/scratchpad/Scratchpad.h"

namespace npusim {

// The off-core cache a cluster's cores share (seed002 §1.2.1, "shared-cache
// type"): a storage space of its own (trace space "cluster"), written and read
// by the cores' DMAs directly, next to the route to DRAM. Like NRAM it is an
// addressed on-chip RAM with one contended port; unlike NRAM every core of the
// cluster reaches it, so it is where one core leaves data for a neighbour.
class ClusterCache : public Scratchpad {
 public:
  ClusterCache(sc_core::sc_module_name name, std::uint32_t cluster, const ClusterCacheConfig& cfg, bool functional);
};

}  // namespace npusim
