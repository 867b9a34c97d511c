#pragma once
#include <cstdint>
#include <vector>

#include "models/matrix_unit/ConvShape.h"
#include "models/sparse_compute_unit/SparseOperands.h"

namespace npusim {

enum class PartitionPolicy { Equal, Balanced };
// What the balancing evens out (seed001 §2.2): each partition's own non-zero percentage
// (the seed's example), or its non-zero count (the work a unit does).
enum class BalanceMetric { NonzeroCount, NonzeroPercent };

struct PartitionRequest {
  std::uint32_t units = 1;           // m: one sub-map per compute unit
  PartitionPolicy policy = PartitionPolicy::Balanced;
  BalanceMetric metric = BalanceMetric::NonzeroCount;
  double threshold = 0.03;           // largest difference accepted between two partitions
};

struct SparsityPartition {
  std::vector<UnitRegion> regions;   // one per unit, row-major over the grid; some may be empty
  std::uint32_t grid_rows = 1, grid_cols = 1;
  std::uint32_t moves = 0;           // row and column boundary moves the balancing made
  // Spread after balancing, in the chosen metric: (max - min) / mean for counts, max - min
  // (as a fraction) for percentages. Empty partitions do not count.
  double imbalance = 0;
  std::vector<std::uint64_t> nonzeros;  // input non-zeros of each unit's window (overlap included)
};

// The partition block 210 (seed001 §2.2, Fig. 3): the output map is split into a grid of
// m rectangles, first equally, then (Balanced) by moving row boundaries between
// neighbouring bands and column boundaries between neighbours within a band until every
// pair of neighbours differs by at most the threshold, or no move helps. Each unit reads
// its rectangle's receptive field, so input sub-maps overlap by k-1 rows and columns.
SparsityPartition partition_by_sparsity(const ConvShape& g, const CompressedMap& map, const PartitionRequest& req);

// The scheduling engine's classification (§2.1): a map is sparse when at least
// `threshold` of its elements are zero.
inline bool is_sparse(double zero_fraction, double threshold) { return zero_fraction >= threshold; }

}  // namespace npusim
