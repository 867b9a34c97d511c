#pragma once
#include "models/sparse_compute_unit/SubmapConvolution.h"

namespace npusim {

// Process 1600 in timing mode without operand pairs. A window's stream is, per input
// channel and kernel tap, one weight's run of products; here each run is a location mask
// (LocationMask.h) and its count, and rounds are formed from the counts:
// - unit 1300 (and any unit held to one weight per round): a run of n products takes
//   ceil(n / p) rounds of its own, which never collide (closed form per weight);
// - units 1400/1500: a run of n >= p products fills n / p whole rounds at once; a round that
//   mixes runs is checked for a shared location with one AND of their masks, and only a
//   round that has one (or that re-issues FIFO products) is materialised as products and
//   handed to the real WriteArbiter, so collisions, merges and the FIFO follow the exact path;
// - 1x1 kernels and fc (§2.13): a window's product count is the popcount of the input
//   position's channel set AND the output channel's weight set.
// The statistics equal convolve_submap_exact's field for field (the randomized test in
// tests/sparse_compute_unit/test_counted_rounds.cpp holds them to it).

// Whether convolve_submap_counted can run this work: timing mode and a VAR of at most 256
// locations (kernels up to 8x8).
bool counted_rounds_apply(const SubmapWork& work);

SubmapStats convolve_submap_counted(const ComputeUnitShape& unit, const SubmapWork& work);

}  // namespace npusim
