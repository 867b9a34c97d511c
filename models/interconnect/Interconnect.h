#pragma once
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/dram/DramAddressMap.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

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
// channels closer than the others.
class Interconnect : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Interconnect> from_cores;
  tlm_utils::simple_initiator_socket<Interconnect> to_dram;

  Interconnect(sc_core::sc_module_name name, const ChipConfig& cfg);

  // Binds one DMA initiator socket; `cluster` is the cluster its core belongs to.
  void connect(tlm::tlm_initiator_socket<>& initiator, std::uint32_t cluster);

  std::uint32_t hops(std::uint32_t cluster, std::uint32_t channel) const;
  std::uint32_t home_cluster(std::uint32_t channel) const;

 private:
  void b_transport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(int port, tlm::tlm_generic_payload& trans);

  ChipConfig cfg_;
  DramAddressMap map_;
  std::vector<std::uint32_t> cluster_of_port_;
};

}  // namespace npusim
