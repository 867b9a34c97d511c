#include "apps/compiler/lower_sparse/SparseLowering.h"

NPUSIM_REGISTER_LOWERING(npusim::SparseLowering)
