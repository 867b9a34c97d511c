#pragma once
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "models/compute_interconnect/BorderExchange.h"
#include "models/compression_block/CompressedRows.h"
#include "models/engine/Engine.h"
#include "models/scheduling_engine/SparsityPartition.h"
#include "models/sparse_cluster/SparseClusterConfig.h"
#include "models/sparse_cluster/SparseLayerMapping.h"
#include "models/sparse_cluster/SparseLayerRows.h"
#include "models/sparse_compute_unit/SparseComputeUnit.h"
#include "models/sparse_memory/FeatureMapMemoryUnit.h"
#include "models/sparse_memory/WeightMemory.h"
#include "models/vector_unit/VectorKernels.h"

namespace npusim {

// The sparse tensor compute cluster with its memory cluster (seed001 Figs. 2, 4, 6-8):
// m compute units, each fed by its own feature-map memory unit (static binding, 400 +
// 800), and one weight memory broadcasting to all. A sparse_conv runs the scheduling
// engine's partition, loads each unit's compressed sub-map over its own DMA path (all
// contend at DRAM), broadcasts the non-zero weights, lets the units work in parallel
// and stores each unit's output rectangle.
class SparseTensorCluster : public Engine {
 public:
  SparseTensorCluster(sc_core::sc_module_name name, EngineSetup setup, const SparseClusterConfig& cfg);

  void connect(CoreWiring& wiring) override;
  void add_report_sections(nlohmann::json& sections) const override;

 protected:
  Work execute(const Instruction& inst) override;

 private:
  // One sparse_conv while its sub-maps are handed out: when each memory unit's loaded
  // parts finished computing (double buffering), and the running totals.
  struct ConvSchedule {
    ConvSchedule(const Instruction& i, const SparseConvPlan& p, Cycles at, std::uint32_t memory_units)
        : inst(i), plan(p), start(at), part_done(memory_units) {}
    const Instruction& inst;
    const SparseConvPlan& plan;
    Cycles start = 0, weights_done = 0, done = 0;
    std::vector<std::vector<Cycles>> part_done;  // per memory unit, in load order
    std::uint64_t products = 0, out_bytes = 0;
    // With a compute interconnect 920: the border exchange, and per sub-map the compute
    // unit and memory unit that ran it (stores wait for the border sums).
    std::unique_ptr<BorderExchange> border;
    struct Placed {
      std::uint32_t unit, memory;
    };
    std::vector<std::optional<Placed>> placed;
    // An input in the recursive format: its rows' bytes (CompressedOutputs.cpp).
    const CompressedRowSizes* ifm_rows = nullptr;
    // sparse_conv_compressed: the compression blocks store each sub-map once every unit is
    // done (a row's stream spans the units of its grid row, ¶139); until then, the
    // requantized map (functional runs) and the finished sub-maps wait here.
    bool compressed = false;
    std::vector<std::int8_t> ofm;
    struct Finished {
      std::uint32_t submap, memory;
      Cycles computed;  // when its back end is done (pooling included)
      SparseUnitTally* tally;
      UnitRegion region;  // its rectangle of the stored map (pooled when the back end pools)
    };
    // Pooling in the back end (1370/1470/1590, ¶168), over the requantized map.
    std::optional<ChannelWindow> pool;
    std::vector<Finished> finished;
    // seed001 ¶84 (HandOff.cpp): this run leaves its outputs in the FM memory units for the
    // next sparse_conv, or takes its input from them (when each sub-map's part arrives).
    bool hand_off = false, handed_in = false;
    std::vector<Cycles> arrival;
    std::uint64_t skipped = 0;  // bytes that did not go to DRAM or come back
  };
  // Outputs left in the FM memory units by a hand_off run, by the DRAM address their values
  // would have had: each unit's rectangle, when it was ready, and the rows' compressed bytes.
  struct HeldOutput {
    CompressedRowSizes rows;
    std::uint32_t w = 0;
    struct Piece {
      UnitRegion region;
      std::uint32_t unit = 0;
      Cycles ready = 0;
    };
    std::vector<Piece> pieces;
  };
  // Runs sub-map `submap`, held by memory unit `memory`, on compute unit `unit` from
  // `free` on; returns when the unit can take the next one.
  Cycles run_submap(ConvSchedule& run, std::uint32_t unit, std::uint32_t submap, std::uint32_t memory,
                    Cycles hop, Cycles free, SparseUnitTally& tally);
  void store_submap(ConvSchedule& run, std::uint32_t submap, std::uint32_t memory, const std::vector<std::int64_t>& sums,
                    Cycles computed, SparseUnitTally& tally);
  // Before any sub-map runs: the border exchange (920 fitted) and the weights the units
  // start with.
  void begin_layer(ConvSchedule& run, std::uint64_t weights);
  // After every sub-map ran: border sums over 920 then the stores, and the weight parts
  // that did not fit (WeightMemory::finish_parts).
  void finish_layer(ConvSchedule& run, SparseConvRun& row, std::uint64_t weights);
  std::vector<std::uint8_t> requantized(const ConvSchedule& run, const std::vector<std::int64_t>& sums) const;
  Work compress(const Instruction& inst);
  Cycles scan_dense(const Instruction& inst, std::vector<std::uint8_t>& bytes);
  // The recursive format (CompressedOutputs.cpp): compress into it, read it, store into it.
  Work compress_rows_op(const Instruction& inst);
  CompressedMap read_recursive(const Instruction& inst, const ConvShape& g, CompressedRowSizes& rows);
  void keep_for_compression(ConvSchedule& run, std::uint32_t submap, std::uint32_t memory,
                            const std::vector<std::int64_t>& sums, Cycles computed, SparseUnitTally& tally);
  void store_compressed(ConvSchedule& run, double ofm_zeros, std::uint64_t seed);
  // The back end's pooling (BackEndPool.cpp): the map pooled, each unit's share of it and
  // when its pooling units finish; then a dense pooled map is stored row by row.
  void pool_back_end(ConvSchedule& run);
  void finish_back_end(ConvSchedule& run);
  void store_pooled(ConvSchedule& run);
  Work sparse_conv(const Instruction& inst);
  // The sub-map's input parts into its memory unit and the unit's work on them (double
  // buffered), or its handed-in input; returns when the unit is done, `first` its start.
  Cycles load_and_compute(ConvSchedule& run, std::uint32_t submap, std::uint32_t memory, Cycles hop, Cycles free,
                          Cycles busy, Cycles& first, std::uint64_t& parts);
  void hold_output(ConvSchedule& run, const CompressedRowSizes& rows);
  void take_handed_in(ConvSchedule& run);
  // The ifm and weights: read (functional runs) or assumed (timing runs).
  void conv_operands(const Instruction& inst, const ConvShape& g, CompressedMap& ifm, CompressedMap& wmap,
                     CompressedRowSizes& ifm_rows);
  CompressedMap read_compressed(const Instruction& inst, std::size_t values, std::uint64_t dense_elements,
                                std::uint32_t h, std::uint32_t w, std::uint32_t c);
  StatGroup& group(const std::string& suffix, const std::string& kind);

  SparseClusterConfig cfg_;
  std::deque<StatGroup> own_groups_;  // when the run has no registry (unit tests)
  std::vector<std::unique_ptr<FeatureMapMemoryUnit>> fm_units_;
  std::vector<std::unique_ptr<SparseComputeUnit>> units_;
  std::unique_ptr<WeightMemory> weight_memory_;
  std::unique_ptr<DmaPath> compress_path_;
  std::unique_ptr<ComputeInterconnect> compute_net_;  // 920, when fitted  // the compression path's reads and writes
  SparseLayerRows layers_;  // the report's sparse_layers: one row per distinct layer
  std::map<std::uint64_t, HeldOutput> held_;
  struct Counters {
    std::uint64_t* dense_macs;
    std::uint64_t* products;
    std::uint64_t* imbalance_permille;
    std::uint64_t* partition_moves;
    std::uint64_t* compressed_elements;
    std::uint64_t* compressed_nonzeros;
    std::uint64_t* output_compressed_bytes;
    std::uint64_t* output_dense_bytes;
    std::uint64_t* dram_bytes_skipped;
  } c_;
};

}  // namespace npusim
