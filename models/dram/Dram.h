#pragma once
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "models/banked_dram/BankedDram.h"
#include "models/dram/DramAddressMap.h"
#include "models/dram/DramStorage.h"
#include "models/kernel/TlmTransfer.h"
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

  // `chip_clock_mhz` converts chip cycles to the banked model's own DRAM clock.
  Dram(sc_core::sc_module_name name, const DramConfig& cfg, bool functional, double chip_clock_mhz);

  DramStorage& storage() { return storage_; }
  std::vector<PortStats> channel_stats() const;
  // The banked model's per-channel counters (row hits, refreshes, latency, ...); none for bandwidth.
  void register_stats(StatRegistry& registry);
  // The banked model's data-bus spans per channel on the timeline; none for bandwidth.
  void trace_to(const BlockSpans& spans);
  // Each channel's bytes read and written as DRAM energy actions (off chip: no area).
  void add_energy(EnergyLedger& ledger) const;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  Cycles book_bandwidth(const PitchedRows& rows, std::uint64_t address, Cycles now, Cycles earliest, bool write);
  Cycles book_banked(const PitchedRows& rows, std::uint64_t address, Cycles earliest, bool write);

  DramConfig cfg_;
  DramAddressMap map_;
  bool functional_;
  DramStorage storage_;
  std::vector<BandwidthPort> channels_;
  // Per channel, of the transaction being served: bytes, cycles, and one row's bytes.
  std::vector<std::uint64_t> shares_;
  std::vector<Cycles> cycles_;
  std::vector<std::uint64_t> row_shares_;
  std::unique_ptr<BankedDram> banked_;  // the banked model, when /chip/dram/model is banked
};

// What one byte the bandwidth model reads or writes costs, as an energy action (the banked
// model prices its commands instead, from the datasheet currents).
EnergyAction dram_byte_energy(bool write);

}  // namespace npusim
