#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/matrix_unit/ConvShape.h"
#include "models/scheduling_engine/SparsityPartition.h"
#include "models/sparse_cluster/SparseClusterConfig.h"
#include "models/sparse_compute_unit/SparseOperands.h"
#include "models/sparse_compute_unit/SubmapConvolution.h"

namespace npusim {

// The compute units keep each non-zero's row and column in 16 bits (NonZero), so a map has at
// most this many rows and columns.
constexpr std::uint32_t kMaxSparseMapSide = 65535;

// The zero fraction the scheduling engine compares with `sparse_threshold` (§2.1).
double measured_zeros(SparsityMeasure measure, double ifm_zeros, double weight_zeros);

// Why a kh x kw kernel cannot run on the cluster (its VAR needs more MIN ports than
// there are), or nothing when it can.
std::optional<std::string> kernel_misfit(const SparseClusterConfig& cfg, std::uint32_t kh, std::uint32_t kw);

// The scheduling engine's decision for one conv or fc layer, made from the zero
// fractions the workload declares (the compiler plans before any data exists).
struct SparseVerdict {
  bool sparse = false;
  double zeros = 0;    // the measured fraction
  std::string reason;  // one line, for explain and the docs
};
SparseVerdict classify_layer(const SparseClusterConfig& cfg, std::uint32_t kh, std::uint32_t kw, double ifm_zeros,
                             double weight_zeros);

// Timing-only data: the zero positions a fraction stands for (seeded), values all 1.
CompressedMap assumed_map(std::uint32_t h, std::uint32_t w, std::uint32_t c, double zeros, std::uint64_t seed);

// One sparse_conv as the cluster lays it out: the scheduling engine's partition, each
// unit's sub-map bucketed into cells, and the kernel's non-zeros. The engine, the
// compiler's explain and the tests all build this one plan.
class SparseConvPlan {
 public:
  SparseConvPlan(const SparseClusterConfig& cfg, const ConvShape& g, const CompressedMap& ifm,
                 const CompressedMap& weights);

  const ConvShape& shape() const { return shape_; }
  const SparsityPartition& partition() const { return partition_; }
  const KernelNonzeros& kernel() const { return kernel_; }
  const CellGrid& cells(std::uint32_t submap) const { return cells_[submap]; }
  // The rectangle a sub-map computes and the input it loads: its own partition region
  // (halo included), or with a compute interconnect 920 its owned input and every output
  // that input reaches (models/compute_interconnect).
  const std::vector<UnitRegion>& compute_regions() const { return compute_regions_; }
  std::uint32_t submaps() const { return std::uint32_t(partition_.regions.size()); }
  // A sub-map's work; `sums` receives its int64 outputs in functional runs.
  SubmapWork work(std::uint32_t submap, std::vector<std::int64_t>* sums = nullptr) const;
  // Static binding of sub-maps to FM memory units (each holds a run of neighbours), as
  // queues for the memory interconnect to hand out.
  SubmapDispatcher dispatcher(const MemoryInterconnect& net) const;
  // The FM memory unit that holds sub-map `submap` under that binding.
  std::uint32_t memory_unit(std::uint32_t submap) const;

 private:
  std::uint32_t memory_units_;
  ConvShape shape_;
  KernelNonzeros kernel_;
  SparsityPartition partition_;
  std::vector<UnitRegion> compute_regions_;
  std::vector<CellGrid> cells_;  // per unit; an empty region has an empty grid
};

}  // namespace npusim
