#include "apps/compiler/lower_shader/ShaderLowering.h"

NPUSIM_REGISTER_LOWERING(npusim::ShaderLowering)
namespace npusim { bool register_layer_engine(const char*, const char*); const bool kForceable = register_layer_engine("shader", "the GPU-style shader core"); }  // frontend/workload/LayerEngines.h
