#include "models/interconnect/Interconnect.h"

#include "sim/energy/EnergyLedger.h"

#include <algorithm>
#include <string>

#include "models/kernel/SimTime.h"

namespace npusim {

Interconnect::Interconnect(sc_core::sc_module_name name, const ChipConfig& cfg)
    : sc_module(name), from_cores("from_cores"), to_dram("to_dram"), cfg_(cfg), map_(cfg.dram) {
  from_cores.register_b_transport(this, &Interconnect::b_transport);
  from_cores.register_transport_dbg(this, &Interconnect::transport_dbg);
  const auto cluster = [](std::uint32_t c) { return "interconnect.cluster" + std::to_string(c); };
  for (std::uint32_t c = 0; c < cfg.clusters; ++c)
    cluster_links_.emplace_back(cluster(c), "link", cfg.interconnect.cluster_link_bytes_per_cycle);
  if (cfg.interconnect.topology != Topology::Numa) return;
  for (std::uint32_t a = 0; a < cfg.clusters; ++a)
    for (std::uint32_t b = a + 1; b < cfg.clusters; ++b)
      inter_cluster_links_.emplace_back(cluster(a) + "-cluster" + std::to_string(b), "link",
                                        cfg.interconnect.inter_cluster_link_bytes_per_cycle);
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

bool Interconnect::remote(std::uint32_t cluster, std::uint32_t channel) const {
  return cfg_.interconnect.topology == Topology::Numa && home_cluster(channel) != cluster;
}

std::uint32_t Interconnect::hops(std::uint32_t cluster, std::uint32_t channel) const {
  return routing_hops(cfg_, cluster, channel);
}

BandwidthPort& Interconnect::inter_cluster_link(std::uint32_t a, std::uint32_t b) {
  const std::uint64_t lo = std::min(a, b), hi = std::max(a, b), n = cfg_.clusters;
  return inter_cluster_links_.at(lo * (2 * n - lo - 1) / 2 + (hi - lo - 1));
}

// A piece may cross its links from the cycle it enters the fabric, alongside the
// channel (cut-through); returns the cycle the last link has passed it.
Cycles Interconnect::cross_links(std::uint32_t cluster, std::uint32_t channel, std::uint64_t bytes, bool write,
                                 Cycles entered) {
  const Cycles now = now_cycles();
  Cycles through = cluster_links_.at(cluster).reserve(now, entered, bytes, write);
  if (remote(cluster, channel))
    through = std::max(through, inter_cluster_link(cluster, home_cluster(channel)).reserve(now, entered, bytes, write));
  return through;
}

void Interconnect::b_transport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const std::uint32_t cluster = cluster_of_port_.at(static_cast<std::size_t>(port));
  const Cycles now = now_cycles();
  const Cycles entered = now + to_cycles(delay);
  std::uint64_t address = trans.get_address();
  std::uint64_t remaining = trans.get_data_length();
  unsigned char* data = trans.get_data_ptr();
  Cycles finished = entered;
  tlm::tlm_generic_payload piece;
  piece.set_command(trans.get_command());
  piece.set_streaming_width(0);
  // One piece per run of equal path: the whole transfer on an SMP fabric (the DRAM books
  // each channel once for its share), one channel block at a time on a NUMA one.
  const bool numa = cfg_.interconnect.topology == Topology::Numa;
  while (remaining > 0) {
    const std::uint64_t bytes = numa ? std::min(remaining, map_.bytes_in_block(address)) : remaining;
    const std::uint32_t channel = map_.channel_of(address);
    const Cycles path = Cycles(hops(cluster, channel)) * cfg_.interconnect.hop_latency;
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
    // Through when both the channel and every link on the path are; then the hops back.
    const Cycles through = std::max(now + to_cycles(piece_delay),
                                    cross_links(cluster, channel, bytes, trans.is_write(), entered));
    finished = std::max(finished, through + path);
    address += bytes;
    remaining -= bytes;
    if (data) data += bytes;
  }
  delay = cycles_to_time(finished - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int Interconnect::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  return to_dram->transport_dbg(trans);
}

void Interconnect::add_energy(EnergyLedger& ledger) const {
  for (const auto* links : {&cluster_links_, &inter_cluster_links_})
    for (const BandwidthPort& link : *links) link.add_energy(ledger, {"bus", "transfer"}, {"bus", "transfer"});
}

std::vector<PortStats> Interconnect::link_stats() const {
  std::vector<PortStats> out;
  for (const auto& link : cluster_links_) out.push_back(link.stats());
  for (const auto& link : inter_cluster_links_) out.push_back(link.stats());
  return out;
}

}  // namespace npusim
