#include "models/dram/Dram.h"

#include <algorithm>

#include "models/kernel/SimTime.h"

namespace npusim {

Dram::Dram(sc_core::sc_module_name name, const DramConfig& cfg, bool functional)
    : sc_module(name), socket("socket"), cfg_(cfg), map_(cfg), functional_(functional) {
  socket.register_b_transport(this, &Dram::b_transport);
  socket.register_transport_dbg(this, &Dram::transport_dbg);
  for (std::uint32_t ch = 0; ch < cfg.channels; ++ch)
    channels_.emplace_back("dram.ch" + std::to_string(ch), "dram_channel", cfg.bytes_per_cycle);
}

void Dram::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const std::uint64_t address = trans.get_address();
  const std::uint64_t bytes = trans.get_data_length();
  const bool write = trans.is_write();
  if (address + bytes > cfg_.capacity_bytes) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const Cycles now = now_cycles(), earliest = now + to_cycles(delay);
  shares_.assign(channels_.size(), 0);
  map_.add_channel_shares(address, bytes, shares_);
  Cycles done = earliest;
  for (std::size_t ch = 0; ch < channels_.size(); ++ch)
    if (shares_[ch] > 0) done = std::max(done, channels_[ch].reserve(now, earliest, shares_[ch], write));
  if (functional_ && trans.get_data_ptr()) {
    if (write)
      storage_.write(address, trans.get_data_ptr(), bytes);
    else
      storage_.read(address, trans.get_data_ptr(), bytes);
  }
  delay = cycles_to_time(done + cfg_.latency - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Zero-time access for functional reads that a timed transfer has already paid for
// (e.g. compressed tensors, whose length is only known once their indices are read).
unsigned int Dram::transport_dbg(tlm::tlm_generic_payload& trans) {
  const std::uint64_t address = trans.get_address();
  const std::uint64_t bytes = trans.get_data_length();
  if (!functional_ || !trans.get_data_ptr() || address + bytes > cfg_.capacity_bytes) return 0;
  if (trans.is_write())
    storage_.write(address, trans.get_data_ptr(), bytes);
  else
    storage_.read(address, trans.get_data_ptr(), bytes);
  return unsigned(bytes);
}

void Dram::add_energy(EnergyLedger& ledger) const {
  for (const auto& ch : channels_) ch.add_energy(ledger, {"dram", "read"}, {"dram", "write"});
}

std::vector<PortStats> Dram::channel_stats() const {
  std::vector<PortStats> out;
  for (const auto& ch : channels_) out.push_back(ch.stats());
  return out;
}

}  // namespace npusim
