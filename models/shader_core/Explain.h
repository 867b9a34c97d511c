#pragma once
#include <string>

#include "models/matrix_unit/ConvShape.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// `npusim explain --engine shader`: how one conv layer blocks into register-group
// tiles on the chip's first shader core kind, from plan_shader_conv. Throws
// InputError when the chip has no shader core or the layer does not fit.
std::string explain_shader_layer(const HardwareConfig& cfg, const ConvShape& layer);

}  // namespace npusim
