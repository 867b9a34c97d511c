#pragma once
#include "models/matrix_unit/WfoldMapping.h"

namespace npusim {

// Fills the plan's traffic (data rows, NRAM requests, relay rows, weight rows, bus bytes, write
// requests) and busy cycles per resource, with the busiest as a lower bound of the total.
// Needs the loop nest, tiles and channel splits already planned (map_wfold_conv).
void estimate_wfold_traffic(WfoldPlan& p, const MatrixUnitConfig& cfg);

}  // namespace npusim
