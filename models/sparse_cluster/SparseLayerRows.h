#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/sparse_compute_unit/SubmapConvolution.h"
#include "sim/common/Cycles.h"

namespace npusim {

// What one compute unit did in a sparse_conv (or, summed, in every run of a layer).
struct SparseUnitTally {
  std::uint32_t submaps = 0, remote_submaps = 0;
  std::uint64_t nonzeros = 0, parts = 0;
  Cycles busy = 0;
  Cycles done = 0;  // after the instruction's start, when its last output was stored (the latest run's)
  SubmapStats stats;
  nlohmann::json regions = nlohmann::json::array();  // each sub-map's place: of the first run only

  // Sums `o` into this tally; the regions stay those of the first run.
  void add(const SparseUnitTally& o);
  nlohmann::json row(std::uint32_t unit, std::uint32_t multipliers) const;
};

// One sparse_conv as the engine ran it: its layer, the partition, and what each unit did.
struct SparseConvRun {
  std::uint64_t id = 0;
  std::string shape;
  std::uint64_t ifm_nonzeros = 0, weight_nonzeros = 0;
  std::uint32_t grid_rows = 0, grid_cols = 0;
  double imbalance = 0;
  std::uint64_t partition_moves = 0, dense_macs = 0, useful_macs = 0;
  std::uint64_t dram_bytes_skipped = 0;  // outputs handed over 920 instead of DRAM (¶84), either side
  Cycles cycles = 0;
  std::vector<SparseUnitTally> units;  // one per compute unit; idle ones have no sub-maps
};

// The report's "sparse_layers": one row per distinct layer (shape and non-zero counts), with
// the number of sparse_conv instructions that ran it and their totals. Memory is bounded by the
// number of distinct layers, not by the trace length (a long trace repeats its layers).
class SparseLayerRows {
 public:
  void add(SparseConvRun run);
  // The rows in first-seen order.
  nlohmann::json rows(std::uint32_t core, std::uint32_t multipliers) const;

 private:
  struct Layer {
    SparseConvRun total;  // the first run's id, shape and partition; sums and worst imbalance
    std::uint64_t instructions = 0;
  };
  std::map<std::string, std::size_t> index_;  // layer key -> position in layers_
  std::vector<Layer> layers_;
};

}  // namespace npusim
