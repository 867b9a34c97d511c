#pragma once
#include <string>

#include "sim/config/HardwareConfig.h"

namespace npusim {

// Rules that tie several keys together (each key alone already passed its limits).
// Throws InputError naming the key that has to change.
void check_cross_fields(const HardwareConfig& cfg, const std::string& file);

}  // namespace npusim
