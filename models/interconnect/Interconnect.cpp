#include "models/interconnect/Interconnect.h"

#include <algorithm>

#include "models/kernel/SimTime.h"

namespace npusim {

Interconnect::Interconnect(sc_core::sc_module_name name, const ChipConfig& cfg)
    : sc_module(name), from_cores("from_cores"), to_dram("to_dram"), cfg_(cfg), map_(cfg.dram) {
  from_cores.register_b_transport(this, &Interconnect::b_transport);
  from_cores.register_transport_dbg(this, &Interconnect::transport_dbg);
}

void Interconnect::connect(tlm::tlm_initiator_socket<>& initiator, std::uint32_t cluster) {
  initiator.bind(from_cores);
  cluster_of_port_.push_back(cluster);
}

std::uint32_t home_cluster(const ChipConfig& cfg, std::uint32_t channel) {
  return static_cast<std::uint32_t>(std::uint64_t(channel) * cfg.clusters / cfg.dram.channels);
}

std::uint32_t routing_hops(const ChipConfig& cfg, std::uint32_t cluster, std::uint32_t channel) {
  const auto& ic = cfg.interconnect;
  if (ic.topology != Topology::Numa) return ic.smp_hops;
  return home_cluster(cfg, channel) == cluster ? ic.numa_local_hops : ic.numa_remote_hops;
}

std::uint32_t Interconnect::home_cluster(std::uint32_t channel) const { return npusim::home_cluster(cfg_, channel); }

std::uint32_t Interconnect::hops(std::uint32_t cluster, std::uint32_t channel) const {
  return routing_hops(cfg_, cluster, channel);
}

void Interconnect::b_transport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const std::uint32_t cluster = cluster_of_port_.at(static_cast<std::size_t>(port));
  std::uint64_t address = trans.get_address();
  std::uint64_t remaining = trans.get_data_length();
  unsigned char* data = trans.get_data_ptr();
  sc_core::sc_time finished = delay;
  tlm::tlm_generic_payload piece;
  piece.set_command(trans.get_command());
  piece.set_streaming_width(0);
  while (remaining > 0) {
    std::uint64_t bytes = std::min(remaining, map_.bytes_in_block(address));
    Cycles path = Cycles(hops(cluster, map_.channel_of(address))) * cfg_.interconnect.hop_latency;
    sc_core::sc_time piece_delay = delay + cycles_to_time(path);
    piece.set_address(address);
    piece.set_data_length(static_cast<unsigned int>(bytes));
    piece.set_streaming_width(static_cast<unsigned int>(bytes));
    piece.set_data_ptr(data);
    piece.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    to_dram->b_transport(piece, piece_delay);
    if (piece.is_response_error()) {
      trans.set_response_status(piece.get_response_status());
      return;
    }
    finished = std::max(finished, piece_delay + cycles_to_time(path));
    address += bytes;
    remaining -= bytes;
    if (data) data += bytes;
  }
  delay = finished;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int Interconnect::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  return to_dram->transport_dbg(trans);
}

}  // namespace npusim
