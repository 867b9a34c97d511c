#include "apps/compiler/lower_vector/VectorLowering.h"

NPUSIM_REGISTER_LOWERING(npusim::VectorLowering)
