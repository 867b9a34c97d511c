#pragma once
#include <vector>

#include "sim/trace/OpCatalog.h"

namespace npusim {

// ml_set (a control-register write, Tables 1-3), fetch_ml (memory to register file)
// and ml_return (results back to memory at NHWC addresses); docs/trace-format.md.
std::vector<OpSpec> fetch_ml_ops();

}  // namespace npusim
