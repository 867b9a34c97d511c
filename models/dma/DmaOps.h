#pragma once
#include <vector>

#include "sim/trace/OpCatalog.h"

namespace npusim {

// A load's `params.multicast` (seed002 §3.9, data-parallel weight exchange): its DRAM
// bytes were already read by an earlier load it depends on and reach this core by the
// fabric's replication. "cluster": they cross the links from the memory to this core's
// cluster (another cluster's read took them out); "core": they fan out behind this
// cluster's routing node (a read of the same cluster took them out), no link or channel.
enum class Multicast { None, Cluster, Core };
Multicast multicast_of(const Instruction& inst);

// Trace ops of the load and store DMAs (registered with their engines).
std::vector<OpSpec> load_ops();
std::vector<OpSpec> store_ops();

}  // namespace npusim
