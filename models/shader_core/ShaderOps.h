#pragma once
#include <vector>

#include "sim/trace/OpCatalog.h"

namespace npusim {

// ml_matmul: one register-group tile multiplied on the shader datapath (docs/trace-format.md).
std::vector<OpSpec> shader_core_ops();

}  // namespace npusim
