#include "apps/compiler/lower_shader/ShaderLowering.h"
#include "apps/frontend/workload/LayerEngines.h"

NPUSIM_REGISTER_LOWERING(npusim::ShaderLowering)
NPUSIM_REGISTER_LAYER_ENGINE("shader", "the GPU-style shader core")
