#pragma once
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "models/dram/DramAddressMap.h"
#include "models/dram/DramStorage.h"
#include "models/timing/BandwidthPort.h"
#include "sim/energy/EnergyLedger.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// Off-chip DRAM: several channels, each a bandwidth port with a fixed access
// latency. A TLM transaction may span channel blocks: each channel is booked once for
// its share of the bytes, all from the same cycle, and the transaction is done when the
// last share is; concurrent transactions on a channel queue behind each other.
class Dram : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Dram> socket;

  Dram(sc_core::sc_module_name name, const DramConfig& cfg, bool functional);

  DramStorage& storage() { return storage_; }
  std::vector<PortStats> channel_stats() const;
  // Each channel's bytes read and written as DRAM energy actions (off chip: no area).
  void add_energy(EnergyLedger& ledger) const;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);

  DramConfig cfg_;
  DramAddressMap map_;
  bool functional_;
  DramStorage storage_;
  std::vector<BandwidthPort> channels_;
  // Per channel, of the transaction being served: bytes, cycles, and one row's bytes.
  std::vector<std::uint64_t> shares_;
  std::vector<Cycles> cycles_;
  std::vector<std::uint64_t> row_shares_;
};

}  // namespace npusim
