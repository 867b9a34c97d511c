#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/scratchpad/ScratchpadBanks.h"
#include "models/timing/BandwidthPort.h"
#include "sim/energy/EnergyLedger.h"
#include "sim/config/HardwareConfig.h"
#include "sim/stats/StatRegistry.h"

namespace npusim {

// A core-local on-chip RAM: NRAM (neurons) or WRAM (weights), seed000 §1.3.
// DMAs reach it through a TLM socket; compute engines sit next to it and use
// `access` directly. Either way every byte goes through the one port, so DMA
// fills and compute reads contend for its bandwidth.
class Scratchpad : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Scratchpad> socket;

  Scratchpad(sc_core::sc_module_name name, const std::string& stats_name, const ScratchpadConfig& cfg,
             bool functional, const std::string& kind = "scratchpad");

  // Books the port (or, when banked, the banks) for a read or write of [offset, offset+bytes);
  // returns the cycle the data is through, including the access latency.
  Cycles access(Cycles now, Cycles earliest, std::uint64_t offset, std::uint64_t bytes, bool write);
  // `count` accesses of `bytes` each, `stride` bytes apart from `offset` (strided reads, seed000
  // §3.4). Unbanked, the port moves count·bytes; banked, each lands on its own bank(s).
  Cycles access_strided(Cycles now, Cycles earliest, std::uint64_t offset, std::uint64_t count, std::uint64_t bytes,
                        std::uint64_t stride, bool write);
  bool banked() const { return banks_ != nullptr; }
  // Banked: the banks' queues go on the timeline (BlockSpans tracks <name>.bank<b>).
  void trace_to(const BlockSpans& spans) {
    if (banks_) banks_->trace_to(spans);
  }
  std::uint64_t bank_conflicts() const { return banks_ ? banks_->counts().conflicts : 0; }
  // Banked scratchpads publish their requests and bank conflicts (StatRegistry, report "registered").
  void register_stats(StatRegistry& registry);

  // Backing bytes in functional runs; nullptr in timing-only runs.
  std::uint8_t* data(std::uint64_t offset) { return bytes_.empty() ? nullptr : bytes_.data() + offset; }

  std::uint64_t capacity() const { return cfg_.capacity_bytes; }
  Cycles access_latency() const { return cfg_.access_latency; }
  PortStats stats() const;
  // Its bytes read and written as energy actions, and its storage as area.
  void add_energy(EnergyLedger& ledger) const;

 private:
  void b_transport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  ScratchpadConfig cfg_;
  BandwidthPort port_;
  Cycles through_banks(Cycles start, Cycles done, std::uint64_t bytes, bool write);
  void publish_counts();

  std::vector<std::uint8_t> bytes_;
  std::uint64_t high_water_ = 0;
  std::unique_ptr<ScratchpadBanks> banks_;  // null: the one shared port
  struct Published {
    std::uint64_t* requests = nullptr;
    std::uint64_t* conflicts = nullptr;
    std::uint64_t* wait_cycles = nullptr;
  } published_;
};

}  // namespace npusim
