#pragma once
#include "apps/compiler/emit/Lowering.h"
#include "apps/compiler/tiling/LayerTiler.h"
#include "models/shader_core/ShaderMapping.h"

namespace npusim {

// Conv and fc on a shader core (seed003): fetch_ml brings register-group tiles, the shader
// datapath multiplies and requantizes.
class ShaderLowering : public Lowering {
 public:
  static constexpr const char* kName = "shader";
  ShaderLowering() : Lowering(kName, 30) {}

  // Planning, the report row, explain (ShaderPlan.cpp, ShaderReport.cpp, ShaderExplain.cpp).
  std::vector<std::string> takes(const Layer& l) const override;
  void plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const override;
  std::string explain_help() const override;
  std::string explain_target() const override;
  std::string explain(const ExplainRequest& q) const override;
  bool explains_by_default(const HardwareConfig& hw) const override;
  void record(const InstructionRecord& r, bool in_reduction, Counters& c) const override;
  void report(const Layer& l, const LayerTiling& t, const Counters& c, nlohmann::json& row) const override;

  // Emission: control registers, then fetch / multiply / return per register-group tile,
  // straight from and to DRAM (ShaderTiles.cpp).
  std::unique_ptr<LoweringState> make_state(const EmitContext& ctx) const override;
  bool whole_tensors() const override { return true; }
  std::uint64_t tiles(const EmitContext& ctx) const override;
  void start_layer(EmitContext& ctx) const override;
  void emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const override;
};

// A shader layer's register-group tiles (its entry in LayerTiling::engine_plans).
inline const ShaderConvPlan& shader_plan(const LayerTiling& t) {
  return *t.engine_plan<ShaderConvPlan>(ShaderLowering::kName);
}

}  // namespace npusim
