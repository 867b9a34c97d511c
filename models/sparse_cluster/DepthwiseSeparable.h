#pragma once
#include <cstdint>
#include <vector>

#include "models/sparse_cluster/SparseLayerMapping.h"

namespace npusim {

// Every sub-map of a plan computed on the cluster's units (sub-map j on the unit whose
// FM memory unit holds it), assembled into the whole output map [ho][wo][co]: each
// unit's own rectangle, or with a compute interconnect 920 the own rectangles after the
// border exchange. Functional, outside the engine's event timing.
struct PlanOutputs {
  std::vector<std::int64_t> sums;
  std::uint64_t loaded = 0;    // input non-zeros the FM memory units loaded
  std::uint64_t products = 0;  // useful products formed
  Cycles busiest = 0;          // the busiest unit's rounds and VAR windows
};
PlanOutputs plan_outputs(const SparseClusterConfig& cfg, const SparseConvPlan& plan);

// The depthwise-separable flow of seed001 §2.9 (¶43, ¶145, ¶199, ¶211) on the sparse
// units, as its steps:
//  1-2. each input channel's map is convolved on its own (depthwise, process 1600 with
//       one input and one output channel) into an intermediate output map; no ReLU;
//  3.   the intermediates are combined by a 1x1 filter (pointwise), on the 1x1/FC path
//       (adder and special accumulator, §2.13);
//  4.   ReLU on the combined map gives the output (pooling, when the network has one,
//       is the following layer's business here).
struct DepthwiseSeparableSteps {
  std::vector<std::vector<std::int64_t>> intermediates;  // per input channel, [ho][wo]
  std::uint64_t intermediate_nonzeros = 0;  // ¶211: the intermediates may not be sparse
  std::uint64_t intermediate_bytes = 0;     // stored back to DRAM dense, 4 bytes an element
  std::vector<std::int64_t> pointwise;      // [ho][wo][co], before ReLU
  std::vector<std::int64_t> output;         // after ReLU
  Cycles depthwise_cycles = 0, pointwise_cycles = 0;  // busiest unit, summed over the channels
  std::uint64_t products = 0;
};

// `dw`: the depthwise geometry (ci = co = channels); `ifm` compressed [hi][wi][channels];
// `dw_kernel` [channels][kh][kw]; `pw_kernel` [co][channels].
DepthwiseSeparableSteps depthwise_separable(const SparseClusterConfig& cfg, const ConvShape& dw,
                                            const CompressedMap& ifm, const std::vector<std::int8_t>& dw_kernel,
                                            const std::vector<std::int8_t>& pw_kernel, std::uint32_t co);

}  // namespace npusim
