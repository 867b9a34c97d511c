#include "models/scratchpad/Scratchpad.h"

#include <algorithm>
#include <cstring>

#include "models/kernel/SimTime.h"

namespace npusim {

Scratchpad::Scratchpad(sc_core::sc_module_name name, const std::string& stats_name,
                       const ScratchpadConfig& cfg, bool functional, const std::string& kind)
    : sc_module(name), socket("socket"), cfg_(cfg), port_(stats_name, kind, cfg.port_bytes_per_cycle) {
  socket.register_b_transport(this, &Scratchpad::b_transport);
  if (functional) bytes_.assign(cfg.capacity_bytes, 0);
  if (cfg.banks.count > 0) banks_ = std::make_unique<ScratchpadBanks>(stats_name, cfg.banks);
}

Cycles Scratchpad::access(Cycles now, Cycles earliest, std::uint64_t offset, std::uint64_t bytes, bool write) {
  // Occupancy is the high-water mark of written bytes: the trace format has no
  // allocate/free, so the furthest byte ever written is what must fit.
  if (write) high_water_ = std::max(high_water_, offset + bytes);
  if (!banks_) return port_.reserve(now, earliest, bytes, write) + cfg_.access_latency;
  const Cycles done = banks_->access(now, earliest, offset, bytes, write);
  return through_banks(std::max(now, earliest), done, bytes, write);
}

Cycles Scratchpad::access_strided(Cycles now, Cycles earliest, std::uint64_t offset, std::uint64_t count,
                                  std::uint64_t bytes, std::uint64_t stride, bool write) {
  if (!banks_) return access(now, earliest, offset, count * bytes, write);
  if (write && count > 0) high_water_ = std::max(high_water_, offset + (count - 1) * stride + bytes);
  const Cycles done = banks_->access_strided(now, earliest, offset, count, bytes, stride, write);
  return through_banks(std::max(now, earliest), done, count * bytes, write);
}

// The port's statistics keep the bytes (energy, bandwidth) and the banks' busiest span.
Cycles Scratchpad::through_banks(Cycles start, Cycles done, std::uint64_t bytes, bool write) {
  port_.add_mirrored(bytes, done - start, write);
  publish_counts();
  return done + cfg_.access_latency;
}

void Scratchpad::register_stats(StatRegistry& registry) {
  if (!banks_) return;
  StatGroup& g = registry.group(port_.name(), "scratchpad");
  published_.requests = &g.counter("bank_requests", "requests", "requests served by the SRAM banks");
  published_.conflicts = &g.counter("bank_conflicts", "count",
                                    "bank bookings that queued behind another access on the same bank");
  published_.wait_cycles = &g.counter("bank_wait_cycles", "cycles", "Σ of those queueing delays");
}

void Scratchpad::publish_counts() {
  if (!published_.requests) return;
  const ScratchpadBanks::Counts& c = banks_->counts();
  *published_.requests = c.requests;
  *published_.conflicts = c.conflicts;
  *published_.wait_cycles = c.wait_cycles;
}

void Scratchpad::b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const std::uint64_t offset = trans.get_address();
  const std::uint64_t bytes = trans.get_data_length();
  if (offset + bytes > cfg_.capacity_bytes) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  Cycles now = now_cycles();
  Cycles done = access(now, now + to_cycles(delay), offset, bytes, trans.is_write());
  if (!bytes_.empty() && trans.get_data_ptr()) {
    if (trans.is_write())
      std::memcpy(bytes_.data() + offset, trans.get_data_ptr(), bytes);
    else
      std::memcpy(trans.get_data_ptr(), bytes_.data() + offset, bytes);
  }
  delay = cycles_to_time(done - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

// A register file (shader cores) is priced as one; NRAM, WRAM and caches as SRAM.
void Scratchpad::add_energy(EnergyLedger& ledger) const {
  const PortStats& traffic = port_.stats();
  const std::string cls = traffic.kind == "register_file" ? "register_file" : "sram";
  const std::size_t c = ledger.add_component({traffic.name, traffic.kind, true, {{cls, cfg_.capacity_bytes / 1024.0}}});
  ledger.add_source(c, {cls, "read", cfg_.capacity_bytes}, &traffic.bytes_read, "bytes_read");
  ledger.add_source(c, {cls, "write", cfg_.capacity_bytes}, &traffic.bytes_written, "bytes_written");
}

PortStats Scratchpad::stats() const {
  PortStats s = port_.stats();
  s.capacity_bytes = cfg_.capacity_bytes;
  s.peak_occupancy_bytes = high_water_;
  return s;
}

}  // namespace npusim
