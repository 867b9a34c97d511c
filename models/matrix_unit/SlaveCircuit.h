#pragma once
#include <cstdint>
#include <string>

#include <systemc>

#include "models/timing/BandwidthPort.h"

namespace npusim {

// One slave circuit of the matrix unit (seed000 Fig. 5): Ncu CUs with their
// first, second and third buffers, fed weights from its own region of the second
// storage circuit over its own distribution link (¶72). The CUs of all slaves
// step in lockstep through the plan's loop nest, so the slave's compute time is
// the unit's; what differs between slaves is how many real output channels the
// round-robin dealing gives each, hence their weight traffic and useful MACs.
class SlaveCircuit : public sc_core::sc_module {
 public:
  struct Stats {
    std::uint64_t output_channels = 0;  // real co computed, summed over instructions
    std::uint64_t useful_macs = 0;
    Cycles active_cycles = 0;           // cycles the unit was running instructions
  };

  SlaveCircuit(sc_core::sc_module_name name, std::uint32_t index, const std::string& link_name,
               double link_bytes_per_cycle);

  std::uint32_t index() const { return index_; }
  // Books `bytes` of extended weight rows on this slave's link; returns when they have arrived.
  Cycles receive_weights(Cycles now, Cycles earliest, std::uint64_t bytes) {
    return link_.reserve(now, earliest, bytes, false);
  }
  BandwidthPort& link() { return link_; }
  void account(std::uint64_t output_channels, std::uint64_t useful_macs, Cycles cycles);

  const Stats& stats() const { return stats_; }
  const PortStats& link_stats() const { return link_.stats(); }

 private:
  std::uint32_t index_;
  BandwidthPort link_;
  Stats stats_;
};

}  // namespace npusim
