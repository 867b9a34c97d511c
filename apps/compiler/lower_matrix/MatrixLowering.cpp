#include "apps/compiler/lower_matrix/MatrixLowering.h"

NPUSIM_REGISTER_LOWERING(npusim::MatrixLowering)
