#pragma once
#include <cstdint>

namespace npusim {

// The whole chip runs in one clock domain, so SystemC time is kept in cycles:
// one SC_NS of simulated time is one clock cycle. The clock frequency only
// converts cycles to seconds in reports.
using Cycles = std::uint64_t;

}  // namespace npusim
