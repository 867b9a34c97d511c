// `npusim explain` and `npusim run` options for the Wfold matrix unit (seed000).
#include "apps/compiler/lower_matrix/MatrixLowering.h"

#include <nlohmann/json.hpp>

#include "models/matrix_unit/Explain.h"
#include "models/matrix_unit/MatrixUnitConfig.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

namespace {

// --matrix-model applies to every kind of core that has a matrix unit.
void force_timing_model(HardwareConfig& hw, const std::string& model) {
  auto force = [&](CoreConfig& kind) {
    if (kind.blocks.has(MatrixUnitConfig::kSection))
      kind.block<MatrixUnitConfig>(MatrixUnitConfig::kSection).timing_model =
          nlohmann::json(model).get<MatrixTimingModel>();
  };
  force(hw.core);
  for (CoreConfig& kind : hw.core_kinds) force(kind);
}

}  // namespace

std::string MatrixLowering::explain_help() const { return "the Wfold unit, seed000"; }
std::string MatrixLowering::explain_target() const { return "the Wfold matrix unit"; }
std::string MatrixLowering::explain(const ExplainRequest& q) const { return explain_conv_layer(q.hw, q.layer); }

// The compiler's choice for a dense conv wherever the chip has the unit.
bool MatrixLowering::explains_by_default(const HardwareConfig& hw) const { return !hw.cores_with(name()).empty(); }

std::vector<Lowering::CliOverride> MatrixLowering::overrides() const {
  return {{"--matrix-model",
           "Time the matrix unit's convs with the fast tile pipeline or the cycle-stepped reference "
           "(slow; same tensors, cycles within the bounds of docs/fidelity.md); overrides "
           "/core/matrix/timing_model",
           {"fast", "cycle-stepped"},
           force_timing_model}};
}

}  // namespace npusim
