#pragma once
#include <cstdint>
#include <vector>

#include "models/compute_interconnect/ComputeInterconnect.h"
#include "models/matrix_unit/ConvShape.h"
#include "models/sparse_compute_unit/SparseOperands.h"

namespace npusim {

// Bytes of one border partial sum (an int32 accumulator value; the seed gives no width).
constexpr std::uint64_t kPartialSumBytes = 4;

// One sparse_conv's border exchange over the compute interconnect 920: every sub-map
// computed on the outputs its owned inputs reach (no_overlap_regions); the sums on a
// neighbour's outputs are sent to the unit that computed that neighbour, which adds
// them before its back end (requantization, ReLU) and store.
class BorderExchange {
 public:
  // own: the output partition; reach: no_overlap_regions of it. Functional runs gather
  // the sums into the whole output map.
  BorderExchange(const ConvShape& g, const std::vector<UnitRegion>& own, const std::vector<UnitRegion>& reach,
                 bool functional);

  // Sub-map `submap` was computed on `unit`, done at `at`; `sums` is [reach rows][reach cols][co].
  void computed(std::uint32_t submap, std::uint32_t unit, Cycles at, const std::vector<std::int64_t>& sums);
  // When each computed sub-map has all its border sums (its own computation included).
  std::vector<Cycles> ready(ComputeInterconnect& net) const;
  // The final sums of a sub-map's own rectangle, [rows][cols][co].
  std::vector<std::int64_t> own_sums(std::uint32_t submap) const;

 private:
  const ConvShape& g_;
  const std::vector<UnitRegion>& own_;
  const std::vector<UnitRegion>& reach_;
  std::vector<std::int64_t> map_;  // [ho][wo][co], functional runs only
  struct Done {
    bool computed = false;
    std::uint32_t unit = 0;
    Cycles at = 0;
  };
  std::vector<Done> done_;
};

}  // namespace npusim
