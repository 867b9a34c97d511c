#pragma once
#include <systemc>

#include "models/timing/BandwidthPort.h"

namespace npusim {

// The bus from the master circuit to every slave (seed000 Fig. 5): one data row
// formed from the first storage circuit reaches all scheduled slaves at once, so
// its traffic does not grow with the slave count. Shared by every tile of the
// unit; bookings queue on its calendar.
class BroadcastBus : public sc_core::sc_module {
 public:
  BroadcastBus(sc_core::sc_module_name name, const std::string& port_name, double bytes_per_cycle);

  // Books `bytes` of data rows no earlier than `earliest`; returns when they have all passed.
  Cycles send(Cycles now, Cycles earliest, std::uint64_t bytes) { return port_.reserve(now, earliest, bytes, false); }
  const PortStats& stats() const { return port_.stats(); }

 private:
  BandwidthPort port_;
};

}  // namespace npusim
