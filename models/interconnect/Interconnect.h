#pragma once
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/dram/DramAddressMap.h"
#include "models/timing/BandwidthPort.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

class EnergyLedger;
struct PitchedRows;
// The cluster whose local memory a DRAM channel is (channel c belongs to cluster
// floor(c * clusters / channels)), and the routing nodes a core of `cluster` crosses
// to reach `channel`: smp_hops on an SMP chip; on a NUMA chip numa_local_hops to its
// own cluster's channels and numa_remote_hops to the others (seed002 §1.2.1).
std::uint32_t home_cluster(const ChipConfig& cfg, std::uint32_t channel);
std::uint32_t routing_hops(const ChipConfig& cfg, std::uint32_t cluster, std::uint32_t channel);

// The routing nodes between the cores' DMAs and the DRAM channels (seed002 §1.2).
// It cuts each transfer at channel-block boundaries, sends every piece to its
// channel, and adds the routing-node hops of the path both ways: SMP chips put
// every channel the same number of hops away, NUMA chips put a cluster's own
// channels closer than the others. Every piece also crosses its cluster's link
// into the fabric and, on NUMA chips going to another cluster's memory, the link
// between the two clusters' routing nodes; links have a bandwidth, so traffic
// that shares one contends (README: which links exist, how a piece books them).
class Interconnect : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Interconnect> from_cores;
  tlm_utils::simple_initiator_socket<Interconnect> to_dram;

  Interconnect(sc_core::sc_module_name name, const ChipConfig& cfg);

  // Binds one DMA initiator socket; `cluster` is the cluster its core belongs to.
  void connect(tlm::tlm_initiator_socket<>& initiator, std::uint32_t cluster);

  std::uint32_t hops(std::uint32_t cluster, std::uint32_t channel) const;
  std::uint32_t home_cluster(std::uint32_t channel) const;

  // Bytes and busy cycles of every link, cluster links first.
  std::vector<PortStats> link_stats() const;
  // Prices the bytes every link carried, both ways, as bus transfers.
  void add_energy(EnergyLedger& ledger) const;

 private:
  void b_transport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(int port, tlm::tlm_generic_payload& trans);
  bool remote(std::uint32_t cluster, std::uint32_t channel) const;  // NUMA, another cluster's memory
  BandwidthPort& inter_cluster_link(std::uint32_t a, std::uint32_t b);
  Cycles cross_links(std::uint32_t cluster, std::uint32_t channel, std::uint64_t bytes, std::uint64_t rows, bool write,
                     Cycles entered);
  bool send_piece(tlm::tlm_generic_payload& trans, std::uint32_t cluster, std::uint64_t address, std::uint64_t bytes,
                  unsigned char* data, const PitchedRows* pitched, const sc_core::sc_time& delay, Cycles entered,
                  Cycles& finished);

  ChipConfig cfg_;
  DramAddressMap map_;
  std::vector<std::uint32_t> cluster_of_port_;
  std::vector<BandwidthPort> cluster_links_;        // one per cluster
  std::vector<BandwidthPort> inter_cluster_links_;  // NUMA: one per pair of clusters, (0,1), (0,2) ... (1,2) ...
};

}  // namespace npusim
