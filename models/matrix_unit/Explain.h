#pragma once
#include <string>

#include "models/matrix_unit/ConvShape.h"
#include "models/matrix_unit/WfoldMapping.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// Steps of the tile pipeline recurrence explain follows at most (0.05 s on a 2-core VM). A larger
// layer is explained from the closed-form figures alone, with the total cycles bounded below.
constexpr std::uint64_t kExplainPipelineSteps = std::uint64_t(1) << 20;

// The explanations that enumerate (shader tiles, sparse non-zeros) refuse a layer past their limit
// at once: InputError "layer spec: size: the layer's <count> <what> exceed explain's limit of <limit>".
void check_explain_limit(double count, std::uint64_t limit, const std::string& what);

// Human-readable report of the Wfold mapping of one conv layer (for `npusim explain`).
// Every number comes from map_wfold_conv and, up to kExplainPipelineSteps, follow_tile_pipeline;
// throws InputError like them.
std::string explain_conv_layer(const HardwareConfig& cfg, const ConvShape& layer);

// The same report for an existing plan; `steps` (pipeline_steps) is named when the plan's
// pipeline was not followed.
std::string explain_wfold_plan(const WfoldPlan& plan, double steps = 0);

}  // namespace npusim
