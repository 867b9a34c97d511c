#pragma once
#include <cstdint>
#include <vector>

#include "apps/compiler/emit/DramPlacement.h"
#include "apps/compiler/tiling/LayerSplit.h"
#include "apps/compiler/tiling/LayerTiler.h"

namespace npusim {

// One layer after planning: its tiling and where its tensors live in DRAM.
struct CompiledLayer {
  Layer layer;
  LayerTiling tiling;
  std::vector<DramTensor> inputs;            // one per input tensor (NHWC)
  std::vector<int> producers;                // layer index per input, -1 for a network input
  std::uint64_t weights_offset = 0;          // the first copy of the weights
  // Per memory, the copy of the weights there; one entry when the memories are not separate.
  std::vector<std::uint64_t> weight_copies;
  // Weights its cores share (SharedReads.cpp) on a chip of separate memories: whole
  // output channels dealt to the memories in turn; empty otherwise.
  DramTensor spread_weights;
  DramTensor output;
  DramTensor kv_cache;                       // matmul: the cached rows of B (decode), one region
  std::vector<int> overwrites;               // dead outputs (layers) whose DRAM its output takes
  LayerSplit split;                          // how its cores share it, and its tensors' tags
  std::uint64_t input_bytes = 0, weight_bytes = 0, output_bytes = 0;  // whole batch
  // Who reads its output (the workload's liveness): how many layers, and the last of
  // them (-1: none, a network output).
  std::uint32_t output_readers = 0;
  std::int64_t last_reader = -1;
};

// What a layer's instructions move, counted as they are emitted.
struct LayerTraffic {
  // Per cluster: load/store bytes to DRAM channels of its own memory, and of another cluster's.
  std::vector<std::uint64_t> dram_local, dram_remote;
  // Model-ci partial sums by the level they are exchanged through: kept in the
  // receiving core's NRAM, its cluster's cache, another cluster's cache, DRAM.
  std::uint64_t exchange_nram = 0, exchange_cache = 0, exchange_remote_cache = 0, exchange_dram = 0;
  // Bytes that reached a core as a copy of another core's DRAM read (params.multicast):
  // across the links into its cluster, and fanned out inside a cluster that had them.
  std::uint64_t multicast_cluster = 0, multicast_core = 0;
  // What each shared resource carries, for the resource that bounds the layer (LayerReport):
  // bytes per DRAM channel; per core, what its load and its store DMA move (any space);
  // per cluster, its link into the routing fabric; on NUMA, each pair link between two
  // clusters' routing nodes ([a * clusters + b], a < b); per cluster, its cache's port.
  std::vector<std::uint64_t> dram_channel, load_dma, store_dma, cluster_link, pair_link, cache_port;
};

}  // namespace npusim
