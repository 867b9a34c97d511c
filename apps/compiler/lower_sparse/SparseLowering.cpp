#include "apps/compiler/lower_sparse/SparseLowering.h"
#include "apps/frontend/workload/LayerEngines.h"

NPUSIM_REGISTER_LOWERING(npusim::SparseLowering)
NPUSIM_REGISTER_LAYER_ENGINE("sparse", "the sparse tensor cluster")
