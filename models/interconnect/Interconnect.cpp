#include "models/interconnect/Interconnect.h"

#include "sim/energy/EnergyLedger.h"

#include <algorithm>
#include <string>

#include "models/kernel/SimTime.h"
#include "models/kernel/TlmTransfer.h"

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
// channel (cut-through); returns the cycle the last link has passed it. A link passes
// one request a cycle: each of the piece's `rows` holds it for whole cycles.
Cycles Interconnect::cross_links(std::uint32_t cluster, std::uint32_t channel, std::uint64_t bytes,
                                 std::uint64_t rows, bool write, Cycles entered) {
  const Cycles now = now_cycles();
  auto book = [&](BandwidthPort& link) {
    return link.reserve_cycles(now, entered, bytes, rows * link.transfer_cycles(bytes / rows), write);
  };
  Cycles through = book(cluster_links_.at(cluster));
  if (remote(cluster, channel)) through = std::max(through, book(inter_cluster_link(cluster, home_cluster(channel))));
  return through;
}

void Interconnect::b_transport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const std::uint32_t cluster = cluster_of_port_.at(static_cast<std::size_t>(port));
  const Cycles now = now_cycles();
  const Cycles entered = now + to_cycles(delay);
  const PitchedRows* pitched = trans.get_extension<PitchedRows>();
  const bool numa = cfg_.interconnect.topology == Topology::Numa;
  Cycles finished = entered;
  bool ok = true;
  if (pitched && !numa) {
    // Every row takes the same path: the rows go on as one pitched piece.
    ok = send_piece(trans, cluster, trans.get_address(), trans.get_data_length(), trans.get_data_ptr(), pitched,
                    delay, entered, finished);
  } else {
    const std::uint64_t rows = pitched ? pitched->rows : 1;
    const std::uint64_t row_bytes = pitched ? pitched->row_bytes : trans.get_data_length();
    unsigned char* data = trans.get_data_ptr();
    for (std::uint64_t r = 0; r < rows && ok; ++r) {
      std::uint64_t address = pitched ? pitched->row_address(trans.get_address(), r) : trans.get_address();
      std::uint64_t remaining = row_bytes;
      // One piece per run of equal path: the whole row on an SMP fabric (the DRAM books
      // each channel once for its share), one channel block at a time on a NUMA one.
      while (remaining > 0 && ok) {
        const std::uint64_t bytes = numa ? std::min(remaining, map_.bytes_in_block(address)) : remaining;
        ok = send_piece(trans, cluster, address, bytes, data, nullptr, delay, entered, finished);
        address += bytes;
        remaining -= bytes;
        if (data) data += bytes;
      }
    }
  }
  if (!ok) return;
  delay = cycles_to_time(finished - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Sends one piece to its channel and books the links on its path; `finished` becomes at
// least the cycle it is through both ways. False (with `trans` given the DRAM's error) if
// the DRAM refused it.
bool Interconnect::send_piece(tlm::tlm_generic_payload& trans, std::uint32_t cluster, std::uint64_t address,
                              std::uint64_t bytes, unsigned char* data, const PitchedRows* pitched,
                              const sc_core::sc_time& delay, Cycles entered, Cycles& finished) {
  const std::uint32_t channel = map_.channel_of(address);
  const Cycles path = Cycles(hops(cluster, channel)) * cfg_.interconnect.hop_latency;
  sc_core::sc_time piece_delay = delay + cycles_to_time(path);
  const std::uint64_t row_count = pitched ? pitched->rows : 1;
  if (trans.get_extension<MulticastCopy>()) {
    // Replicated by the fabric from a read that already left the channel: only the
    // links towards this cluster and the hops from the memory carry it.
    tlm_debug_read(*to_dram.operator->(), address, bytes, data, row_count, pitched ? pitched->pitch : 0);
    finished = std::max(finished, cross_links(cluster, channel, bytes, row_count, false, entered) + path);
    return true;
  }
  PitchedRows rows = pitched ? *pitched : PitchedRows{};
  TransferPayload borrowed(trans.get_command(), address, bytes, data, pitched ? &rows : nullptr);
  tlm::tlm_generic_payload& piece = *borrowed;
  to_dram->b_transport(piece, piece_delay);
  if (piece.is_response_error()) {
    trans.set_response_status(piece.get_response_status());
    return false;
  }
  // Through when both the channel and every link on the path are; then the hops back.
  const Cycles through = std::max(now_cycles() + to_cycles(piece_delay),
                                  cross_links(cluster, channel, bytes, row_count, trans.is_write(), entered));
  finished = std::max(finished, through + path);
  return true;
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
