#pragma once
#include <string>

#include "models/matrix_unit/ConvShape.h"
#include "models/matrix_unit/WfoldMapping.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// Human-readable report of the Wfold mapping of one conv layer (for `npusim explain`).
// Every number comes from plan_wfold_conv; throws InputError like it.
std::string explain_conv_layer(const HardwareConfig& cfg, const ConvShape& layer);

// The same report for an existing plan.
std::string explain_wfold_plan(const WfoldPlan& plan);

}  // namespace npusim
