#include "models/dram/Dram.h"

#include <algorithm>

#include "models/kernel/SimTime.h"
#include "models/kernel/TlmTransfer.h"

namespace npusim {

Dram::Dram(sc_core::sc_module_name name, const DramConfig& cfg, bool functional, double chip_clock_mhz)
    : sc_module(name), socket("socket"), cfg_(cfg), map_(cfg), functional_(functional) {
  socket.register_b_transport(this, &Dram::b_transport);
  socket.register_transport_dbg(this, &Dram::transport_dbg);
  if (cfg.model == DramModel::Banked) banked_ = std::make_unique<BankedDram>(cfg, chip_clock_mhz);
  const double peak = banked_ ? banked_->peak_bytes_per_cycle() : cfg.bytes_per_cycle;
  for (std::uint32_t ch = 0; ch < cfg.channels; ++ch)
    channels_.emplace_back("dram.ch" + std::to_string(ch), "dram_channel", peak);
}

// A pitched transaction (PitchedRows) books each channel once for the cycles its rows
// would have held it one by one: every row's share is rounded up to whole cycles. Rows a
// share period apart split alike, so each distinct split is worked out once and counted
// for every row that has it.
Cycles Dram::book_bandwidth(const PitchedRows& rows, std::uint64_t address, Cycles now, Cycles earliest, bool write) {
  shares_.assign(channels_.size(), 0);
  cycles_.assign(channels_.size(), 0);
  const std::uint64_t period = map_.share_period(rows.pitch, rows.rows);
  for (std::uint64_t r = 0; r < period; ++r) {
    const std::uint64_t alike = rows.rows / period + (r < rows.rows % period ? 1 : 0);  // rows r, r + period, ...
    row_shares_.assign(channels_.size(), 0);
    map_.add_channel_shares(rows.row_address(address, r), rows.row_bytes, row_shares_);
    for (std::size_t ch = 0; ch < channels_.size(); ++ch) {
      if (row_shares_[ch] == 0) continue;
      shares_[ch] += row_shares_[ch] * alike;
      cycles_[ch] += channels_[ch].transfer_cycles(row_shares_[ch]) * alike;
    }
  }
  Cycles done = earliest;
  for (std::size_t ch = 0; ch < channels_.size(); ++ch)
    if (shares_[ch] > 0) done = std::max(done, channels_[ch].reserve_cycles(now, earliest, shares_[ch], cycles_[ch], write));
  return done;
}

// Every row's pieces become whole bursts on their channels, booked together from `earliest`.
Cycles Dram::book_banked(const PitchedRows& rows, std::uint64_t address, Cycles earliest, bool write) {
  banked_->begin();
  shares_.assign(channels_.size(), 0);
  for (std::uint64_t r = 0; r < rows.rows; ++r)
    map_.for_each_piece(rows.row_address(address, r), rows.row_bytes,
                        [&](std::uint32_t ch, std::uint64_t local, std::uint64_t bytes) {
                          shares_[ch] += bytes;
                          banked_->add(ch, local, bytes);
                        });
  for (std::size_t ch = 0; ch < channels_.size(); ++ch)
    if (shares_[ch] > 0)
      channels_[ch].add_mirrored(shares_[ch], banked_->bus_cycles(banked_->pending_bursts(std::uint32_t(ch))), write);
  return banked_->book(earliest, write);
}

void Dram::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const std::uint64_t address = trans.get_address();
  const std::uint64_t bytes = trans.get_data_length();
  const PitchedRows* pitched = trans.get_extension<PitchedRows>();
  PitchedRows rows;
  if (pitched) rows = *pitched; else rows.row_bytes = rows.pitch = bytes;
  const bool write = trans.is_write();
  if (rows.rows == 0 || rows.row_address(address, rows.rows - 1) + rows.row_bytes > cfg_.capacity_bytes) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const Cycles now = now_cycles(), earliest = now + to_cycles(delay);
  const Cycles done =
      banked_ ? book_banked(rows, address, earliest, write) : book_bandwidth(rows, address, now, earliest, write);
  if (functional_ && trans.get_data_ptr()) {
    for (std::uint64_t r = 0; r < rows.rows; ++r) {
      std::uint8_t* data = trans.get_data_ptr() + r * rows.row_bytes;
      if (write)
        storage_.write(rows.row_address(address, r), data, rows.row_bytes);
      else
        storage_.read(rows.row_address(address, r), data, rows.row_bytes);
    }
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

// The banked model prices its commands (models/banked_dram); the bandwidth model its bytes.
void Dram::add_energy(EnergyLedger& ledger) const {
  if (banked_) return banked_->add_energy(ledger);
  for (const auto& ch : channels_) ch.add_energy(ledger, dram_byte_energy(false), dram_byte_energy(true));
}

EnergyAction dram_byte_energy(bool write) { return {"dram", write ? "write" : "read"}; }

void Dram::register_stats(StatRegistry& registry) {
  if (banked_) banked_->register_stats(registry);
}

void Dram::trace_to(const BlockSpans& spans) {
  if (banked_) banked_->trace_to(spans);
}

std::vector<PortStats> Dram::channel_stats() const {
  if (banked_) banked_->publish();
  std::vector<PortStats> out;
  for (const auto& ch : channels_) out.push_back(ch.stats());
  return out;
}

}  // namespace npusim
