#include "apps/compiler/lower_sparse/SparseLowering.h"

NPUSIM_REGISTER_LOWERING(npusim::SparseLowering)
namespace npusim { bool register_layer_engine(const char*, const char*); const bool kForceable = register_layer_engine("sparse", "the sparse tensor cluster"); }  // frontend/workload/LayerEngines.h
