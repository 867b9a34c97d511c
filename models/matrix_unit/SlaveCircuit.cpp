#include "models/matrix_unit/SlaveCircuit.h"

namespace npusim {

SlaveCircuit::SlaveCircuit(sc_core::sc_module_name name, std::uint32_t index, const std::string& link_name,
                           double link_bytes_per_cycle)
    : sc_module(name), index_(index), link_(link_name, "bus", link_bytes_per_cycle) {}

void SlaveCircuit::account(std::uint64_t output_channels, std::uint64_t useful_macs, Cycles cycles) {
  stats_.output_channels += output_channels;
  stats_.useful_macs += useful_macs;
  stats_.active_cycles += cycles;
}

}  // namespace npusim
