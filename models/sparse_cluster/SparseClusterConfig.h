#pragma once
#include <cstdint>

#include <nlohmann/json.hpp>

#include "models/compute_interconnect/ComputeInterconnect.h"
#include "models/scheduling_engine/SparsityPartition.h"
#include "models/sparse_compute_unit/SubmapConvolution.h"
#include "models/sparse_memory/MemoryInterconnect.h"
#include "models/sparse_memory/WeightMemory.h"
#include "sim/common/Cycles.h"
#include "sim/config/CoreSections.h"

namespace npusim {

NLOHMANN_JSON_SERIALIZE_ENUM(SparseUnitKind, {{SparseUnitKind::Unit1300, "1300"},
                                              {SparseUnitKind::Unit1400, "1400"},
                                              {SparseUnitKind::Unit1500, "1500"}})
// What the scheduling engine compares with sparse_threshold: the input map's zero
// fraction (the seed's rule, §2.1) or the fraction of zero products (either operand zero).
enum class SparsityMeasure { IfmZeros, ProductZeros };
NLOHMANN_JSON_SERIALIZE_ENUM(SparsityMeasure, {{SparsityMeasure::IfmZeros, "ifm_zeros"},
                                               {SparsityMeasure::ProductZeros, "product_zeros"}})
NLOHMANN_JSON_SERIALIZE_ENUM(MemoryInterconnectKind, {{MemoryInterconnectKind::Static, "static"},
                                                      {MemoryInterconnectKind::Switch2x2, "2x2"},
                                                      {MemoryInterconnectKind::Benes, "benes"}})
NLOHMANN_JSON_SERIALIZE_ENUM(ComputeInterconnectKind, {{ComputeInterconnectKind::None, "none"},
                                                       {ComputeInterconnectKind::Switch2x2, "2x2"},
                                                       {ComputeInterconnectKind::Benes, "benes"}})
NLOHMANN_JSON_SERIALIZE_ENUM(WeightRefill, {{WeightRefill::Uncharged, "uncharged"},
                                            {WeightRefill::Single, "single"},
                                            {WeightRefill::Double, "double"}})
NLOHMANN_JSON_SERIALIZE_ENUM(PartitionPolicy, {{PartitionPolicy::Balanced, "balanced"},
                                               {PartitionPolicy::Equal, "equal"}})
NLOHMANN_JSON_SERIALIZE_ENUM(BalanceMetric, {{BalanceMetric::NonzeroCount, "nnz_count"},
                                             {BalanceMetric::NonzeroPercent, "nnz_percent"}})

// Where a sparse layer's weights are compressed: outside the accelerator, once, into the
// trace's DRAM image (seed001 ¶203-205), or by a `compress` op on the chip before the layer
// (for weights that change at run time).
enum class WeightCompression { Offline, OnChip };
NLOHMANN_JSON_SERIALIZE_ENUM(WeightCompression, {{WeightCompression::Offline, "offline"},
                                                 {WeightCompression::OnChip, "on_chip"}})

// Which size the cluster takes from the matrix unit's area (docs/sparse-iso-area.md): none
// (as written), its units, or each unit's multipliers.
enum class IsoAreaSizing { None, Units, Multipliers };
NLOHMANN_JSON_SERIALIZE_ENUM(IsoAreaSizing, {{IsoAreaSizing::None, "none"},
                                             {IsoAreaSizing::Units, "units"},
                                             {IsoAreaSizing::Multipliers, "multipliers"}})

// How the compiler picks a conv or fc layer's engine: the scheduling engine's verdict
// (seed001 §2.1), or the engine the mapping predicts fastest, or lowest in energy
// (apps/compiler/planning/LayerPlacement.h).
enum class LayerPlacementRule { Verdict, AutoCost, AutoCostEnergy };
NLOHMANN_JSON_SERIALIZE_ENUM(LayerPlacementRule, {{LayerPlacementRule::Verdict, "verdict"},
                                                  {LayerPlacementRule::AutoCost, "auto-cost"},
                                                  {LayerPlacementRule::AutoCostEnergy, "auto-cost-energy"}})

// The /core/sparse section: the sparse tensor cluster of seed001 (Figs. 2, 4-9). The
// seed gives no latency, width or size: every timing key is an assumption
// (models/sparse_cluster/README.md).
struct SparseClusterConfig {
  static constexpr const char* kSection = "sparse";
  std::uint32_t queue_depth;
  std::uint32_t units;                 // m compute units = m feature-map memory units
  SparseUnitKind unit_kind;
  std::uint32_t multipliers;           // p per unit
  std::uint32_t max_weights_per_round; // units 1400/1500; 0 = fill every multiplier
  bool adder_merge;                    // unit 1500: adder block sums colliding neighbours
  std::uint32_t min_ports;             // Benes ports of each VAR MIN (power of two)
  Cycles round_cycles;                 // one multiplier round through the MINs into VAR
  Cycles window_cycles;                // VAR load from and write-back to the accumulator buffer
  Cycles pipeline_latency;             // multiplier -> VAR -> back end, once per instruction
  std::uint32_t pool_units;            // b: pooling units in each unit's back end (¶138), a window a cycle each
  double dma_bytes_per_cycle;          // each FM memory unit's DMA path, and the weight memory's
  std::uint64_t request_bytes;         // DMA request size
  std::uint64_t fm_buffer_bytes;       // one buffer set (value + index buffer) of an FM memory unit
  std::uint64_t weight_buffer_bytes;   // the weight memory's value + index buffers
  std::uint32_t compress_elements_per_cycle;
  double sparse_threshold;             // zero fraction from which the compiler calls a layer sparse
  SparsityMeasure sparsity_measure;
  double balance_threshold;
  BalanceMetric balance_metric;
  PartitionPolicy partition;
  std::uint32_t submaps_per_unit;      // the partition makes units x this many sub-maps
  MemoryInterconnectKind memory_interconnect;
  Cycles interconnect_stage_cycles;    // per switch stage of the memory interconnect
  ComputeInterconnectKind compute_interconnect;  // 920: none keeps the overlapping partition
  Cycles compute_stage_cycles;         // per switch stage of the compute interconnect
  double compute_link_bytes_per_cycle; // each port of the compute interconnect
  WeightRefill weight_refill;          // how a kernel larger than the weight memory is charged
  WeightCompression weight_compression;  // offline (in the trace's DRAM image) or on the chip
  bool hand_off;                       // outputs go to the next layer's units over 920 when they can (¶84)
  LayerPlacementRule placement;
  IsoAreaSizing iso_area;              // resolved at load (SparseIsoArea.h): units or multipliers sized

  ComputeUnitShape unit_shape() const { return {unit_kind, multipliers, max_weights_per_round, min_ports, adder_merge}; }
  ComputeUnitTiming unit_timing() const { return {round_cycles, window_cycles}; }
  std::uint32_t submaps() const { return units * submaps_per_unit; }
  PartitionRequest partition_request() const { return {submaps(), partition, balance_metric, balance_threshold}; }
  MemoryInterconnect memory_network() const { return {memory_interconnect, units, interconnect_stage_cycles}; }
};

CoreSection sparse_cluster_config_section();
double sparse_peak_macs_per_cycle(const SparseClusterConfig& cfg);

}  // namespace npusim
