#pragma once
#include <cstdint>
#include <vector>

#include "models/sparse_cluster/SparseLayerMapping.h"

namespace npusim {

// One sub-map of a sparse_conv as the estimate schedules it.
struct SubmapRun {
  std::uint32_t submap = 0, memory_unit = 0, unit = 0;
  SubmapStats stats;
  std::uint64_t busy = 0;  // the unit's rounds and VAR windows (ComputeUnitTiming::busy)
  std::uint64_t end = 0;   // its last result
};

// One image of a sparse_conv without DRAM contention: the weights load over the weight
// memory's path, then the engine's hand-out of sub-maps (dispatch_submaps), each memory
// unit's DMA loading its sub-maps back to back (values and index bytes of the recursive format
// the compiler emits for feature maps) and storing each output rectangle dense. It leaves out,
// as it leaves out DRAM contention, compute interconnect 920's border exchange, a handed-in
// input (¶84: counted as loaded) and the back end's pooling. `npusim explain --engine sparse` prints it; the compiler's auto-cost placement
// compares its `finish` with the other engine's prediction.
struct SparseConvEstimate {
  std::uint64_t weight_load = 0;  // cycles
  std::uint64_t finish = 0;       // the last output rectangle stored
  std::uint64_t products = 0, rounds = 0;
  // Bytes the estimate moves: the weights in (weight memory), the sub-maps' values and index
  // bytes in (FM memory units), the output rectangles out (dense); the energy prediction's counts.
  std::uint64_t map_bytes = 0;  // the input map in the recursive format: what its compress writes
  std::uint64_t weight_nonzeros = 0, weight_bytes = 0;
  std::uint64_t loaded_value_bytes = 0, loaded_index_bytes = 0, stored_bytes = 0;
  std::vector<SubmapRun> runs;  // in hand-out order
};
SparseConvEstimate estimate_sparse_conv(const SparseClusterConfig& sc, const SparseConvPlan& plan,
                                        const CompressedMap& ifm, std::uint64_t weight_nonzeros);

// One compress op on `dense` elements that writes `written` bytes, without contention, in the
// estimate's terms: the dense read over the cluster's compress path (or the scan at
// compress_elements_per_cycle, if slower), then the values and indices written over it.
double estimate_compress(const SparseClusterConfig& sc, double dense, double written);
// The bytes the flat format (weights) takes for `nonzeros` non-zeros: 5 per non-zero.
double compressed_bytes(double nonzeros);

// The same from a layer's declared zero fractions (timing-only maps, as a timing run builds them).
SparseConvEstimate estimate_sparse_layer(const SparseClusterConfig& sc, const ConvShape& g, double ifm_zeros,
                                         double weight_zeros, std::uint64_t seed);

}  // namespace npusim
