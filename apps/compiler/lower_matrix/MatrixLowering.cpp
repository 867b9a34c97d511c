#include "apps/compiler/lower_matrix/MatrixLowering.h"

NPUSIM_REGISTER_LOWERING(npusim::MatrixLowering)
namespace npusim { bool register_layer_engine(const char*, const char*); const bool kForceable = register_layer_engine("matrix", "the Wfold unit"); }  // frontend/workload/LayerEngines.h
