#pragma once
#include <vector>

#include "sim/trace/OpCatalog.h"

namespace npusim {

// Trace ops of the vector unit: relu, add, requant, pool, dwconv (registered with the engine).
std::vector<OpSpec> vector_ops();

}  // namespace npusim
