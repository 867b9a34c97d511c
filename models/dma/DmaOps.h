#pragma once
#include <vector>

#include "sim/trace/OpCatalog.h"

namespace npusim {

// Trace ops of the load and store DMAs (registered with their engines).
std::vector<OpSpec> load_ops();
std::vector<OpSpec> store_ops();

}  // namespace npusim
