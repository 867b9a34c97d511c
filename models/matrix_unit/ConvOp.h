#pragma once
#include <vector>

#include "sim/trace/OpCatalog.h"

namespace npusim {

// The matrix unit's trace op: conv (registered with the engine).
std::vector<OpSpec> matrix_unit_ops();

}  // namespace npusim
