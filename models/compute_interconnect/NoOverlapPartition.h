#pragma once
#include <cstdint>
#include <vector>

#include "models/matrix_unit/ConvShape.h"
#include "models/sparse_compute_unit/SparseOperands.h"

namespace npusim {

// The partition without overlap that the compute interconnect 920 makes possible
// (seed001 ¶52, §1.8): each compute unit loads only the input rows and columns it owns
// (the input map is tiled, no halo), forms every product of those inputs, and keeps
// the sums of its own outputs; the sums that land on a neighbour's outputs are border
// partial sums that travel over 920 to the owner.
//
// `own` is the scheduling engine's output partition (one rectangle per sub-map). The
// result has, per sub-map, the input window it owns (row0/rows, col0/cols) and, as its
// output rectangle, every output those inputs reach (its own plus a border ring).
std::vector<UnitRegion> no_overlap_regions(const ConvShape& g, const std::vector<UnitRegion>& own);

// The outputs shared by sub-map `from`'s reach and sub-map `to`'s own rectangle.
std::uint64_t border_outputs(const UnitRegion& reach, const UnitRegion& own);

}  // namespace npusim
