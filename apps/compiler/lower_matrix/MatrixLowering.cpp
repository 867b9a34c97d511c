#include "apps/compiler/lower_matrix/MatrixLowering.h"
#include "apps/frontend/workload/LayerEngines.h"

NPUSIM_REGISTER_LOWERING(npusim::MatrixLowering)
NPUSIM_REGISTER_LAYER_ENGINE("matrix", "the Wfold unit")
