#include "apps/compiler/lower_dma/ConcatLowering.h"

NPUSIM_REGISTER_LOWERING(npusim::ConcatLowering)
