#pragma once
#include "apps/compiler/emit/Lowering.h"
#include "apps/compiler/tiling/LayerTiler.h"
#include "models/matrix_unit/WfoldMapping.h"

namespace npusim {

// Conv, fc and matmul on the Wfold matrix unit (seed000), requantized by the vector unit or on
// its result path; model-ci partial sums reduced between cores (seed002).
class MatrixLowering : public Lowering {
 public:
  static constexpr const char* kName = "matrix";
  MatrixLowering() : Lowering(kName, 20) {}

  // Planning, the report row, explain (MatrixPlan.cpp, MatrixReport.cpp, MatrixExplain.cpp).
  std::vector<std::string> takes(const Layer& l) const override;
  void plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const override;
  bool splits_channels(const Layer& l) const override;
  bool orders_loads(const Layer& l) const override;
  std::optional<double> band_cycles(const LayerTiling& t) const override;
  std::optional<PredictedCounts> layer_counts(const Workload& w, const Layer& l, const LayerTiling& t,
                                              const HardwareConfig& hw) const override;  // MatrixCost.cpp
  std::uint32_t tag_lanes(const LayerTiling& t) const override;
  std::string explain_help() const override;
  std::string explain_target() const override;
  std::string explain(const ExplainRequest& q) const override;
  bool explains_by_default(const HardwareConfig& hw) const override;
  std::vector<CliOverride> overrides() const override;
  void record(const InstructionRecord& r, bool in_reduction, Counters& c) const override;
  void report(const Layer& l, const LayerTiling& t, const Counters& c, nlohmann::json& row) const override;

  // Emission: weight blocks into WRAM halves (MatrixWeights.cpp), bands through the matrix
  // unit (MatrixTiles.cpp), model-ci partial sums reduced between the cores through their
  // exchange slots (PartialSumReduction.cpp).
  std::unique_ptr<LoweringState> make_state(const EmitContext& ctx) const override;
  void place_workload(EmitContext& ctx) const override;
  std::uint32_t passes(const EmitContext& ctx) const override;
  void see_layer(EmitContext& ctx) const override;
  void start_layer(EmitContext& ctx) const override;
  void emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const override;
  void end_step(EmitContext& ctx) const override;
};

// Channel blocking for WRAM: the whole weight tensor when it fits, else the largest block
// that fits half of WRAM (aligned to the slave count so no round is padded), or all of
// WRAM when that moves fewer DRAM bytes, else all of WRAM. Throws InputError when one
// output channel's weights do not fit.
void choose_co_block(const Workload& w, const Layer& l, LayerTiling& t, const CoreConfig& core);

// The Wfold mapping of one full band of a matrix layer (its entry in LayerTiling::engine_plans).
inline const WfoldPlan& band_plan(const LayerTiling& t) { return *t.engine_plan<WfoldPlan>(MatrixLowering::kName); }

}  // namespace npusim
