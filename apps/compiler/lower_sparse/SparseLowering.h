#pragma once
#include <cstdint>

#include "apps/compiler/emit/Lowering.h"
#include "models/sparse_cluster/SparseLayerMapping.h"

namespace npusim {

// The sparse lowering's entry in a conv or fc layer's tiling (LayerTiling::engine_plans):
// the scheduling engine's verdict, kept whichever engine runs the layer, and on the
// cluster the dense input elements of a full band (each band is compressed into a DRAM slot).
struct SparseLayerPlan {
  SparseVerdict verdict;
  std::uint64_t band_elements = 0;
  // A pool layer pooled in the back end of the conv before it (¶168): it emits nothing.
  bool fused_pool = false;
};

// Conv and fc on the sparse tensor cluster (seed001), when its scheduling engine calls the layer
// sparse.
class SparseLowering : public Lowering {
 public:
  static constexpr const char* kName = "sparse";
  SparseLowering() : Lowering(kName, 10) {}

  // Planning, the report row, explain (SparsePlan.cpp, SparseReport.cpp, SparseExplain.cpp).
  bool probe(const Workload& w, const Layer& l, LayerTiling& t, const HardwareConfig& hw) const override;
  // A pool whose only input is a conv the cluster takes, and that conv's only reader, runs in
  // the conv's back end (seed001 1370/1470/1590, ¶168) under the verdict rule (SparsePlan.cpp).
  bool probe_pool(const Workload& w, const Layer& l, LayerTiling& t, const HardwareConfig& hw) const;
  void plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const override;
  // Placement by cost (SparseCost.cpp).
  bool places_by_cost(const HardwareConfig& hw) const override;
  bool places_by_energy(const HardwareConfig& hw) const override;
  bool chains_to(const Layer& producer, std::uint32_t producer_readers, const Layer& reader,
                 const Workload& w) const override;  // SparseChaining.cpp
  std::optional<double> layer_cycles(const Workload& w, const Layer& l, const LayerTiling& t,
                                     const HardwareConfig& hw) const override;
  std::optional<PredictedCounts> layer_counts(const Workload& w, const Layer& l, const LayerTiling& t,
                                              const HardwareConfig& hw) const override;
  std::string explain_help() const override;
  std::string explain_target() const override;
  std::string explain(const ExplainRequest& q) const override;
  bool explain_claims(const ExplainRequest& q) const override;
  std::string explain_preamble(const ExplainRequest& q) const override;
  void record(const InstructionRecord& r, bool in_reduction, Counters& c) const override;
  void report(const Layer& l, const LayerTiling& t, const Counters& c, nlohmann::json& row) const override;

  // Emission: the weights compressed offline (or once on the chip), then per band: compress the input rows into one of
  // the core's two DRAM slots, and sparse_conv them (SparseTiles.cpp).
  std::unique_ptr<LoweringState> make_state(const EmitContext& ctx) const override;
  bool whole_tensors() const override { return true; }
  void place_layer(EmitContext& ctx, CompiledLayer& c) const override;
  void place_workload(EmitContext& ctx) const override;
  bool dense_output(const EmitContext& ctx, std::size_t layer) const override;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> offline_weights(const EmitContext& ctx,
                                                                         std::size_t layer) const override;
  void emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const override;
};

}  // namespace npusim
