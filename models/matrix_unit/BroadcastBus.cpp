#include "models/matrix_unit/BroadcastBus.h"

namespace npusim {

BroadcastBus::BroadcastBus(sc_core::sc_module_name name, const std::string& port_name, double bytes_per_cycle)
    : sc_module(name), port_(port_name, "bus", bytes_per_cycle) {}

}  // namespace npusim
