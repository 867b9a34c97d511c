#include "apps/compiler/lower_shader/ShaderLowering.h"

NPUSIM_REGISTER_LOWERING(npusim::ShaderLowering)
