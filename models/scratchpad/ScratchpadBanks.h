#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/timing/BandwidthPort.h"
#include "sim/report/BlockSpans.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// The SRAM banks of a scratchpad (issue 33; assumptions in README.md). An access is cut into
// aligned requests of request_bytes; a request lies in interleave unit address / interleave_bytes,
// and unit u in bank u mod count (a request wider than the interleave occupies every bank it
// spans). Each bank has `ports` calendars; a request holds one for request_cycles. One access's
// requests to a bank queue one after another; requests to different banks, and other
// requesters' requests elsewhere, go side by side. Counted, not clocked: an access makes one
// calendar booking per bank port it touches.
class ScratchpadBanks {
 public:
  ScratchpadBanks(const std::string& name, const BankConfig& cfg);

  // Books [offset, offset + bytes) from `earliest`; returns the cycle after its last request.
  Cycles access(Cycles now, Cycles earliest, std::uint64_t offset, std::uint64_t bytes, bool write);
  // `count` reads or writes of `bytes` each, `stride` bytes apart (a strided read, §3.4).
  Cycles access_strided(Cycles now, Cycles earliest, std::uint64_t offset, std::uint64_t count, std::uint64_t bytes,
                        std::uint64_t stride, bool write);

  // Requests per bank of [offset, offset + bytes), added to `per_bank`.
  void count_requests(std::uint64_t offset, std::uint64_t bytes, std::vector<std::uint64_t>& per_bank) const;

  struct Counts {
    std::uint64_t requests = 0;
    std::uint64_t conflicts = 0;     // bank bookings that waited for another access on their bank
    std::uint64_t wait_cycles = 0;   // Σ of those waits
  };
  const Counts& counts() const { return counts_; }
  // Bank queues on the timeline: a booking that waited shows as "queued" on track <name>.bank<b>.
  void trace_to(const BlockSpans& spans) { spans_ = &spans; }

 private:
  Cycles book(Cycles now, Cycles earliest, const std::vector<std::uint64_t>& per_bank, bool write);
  void add_request(std::uint64_t request, std::uint64_t times, std::vector<std::uint64_t>& per_bank) const;

  std::string name_;
  const BlockSpans* spans_ = nullptr;
  BankConfig cfg_;
  std::vector<BandwidthPort> ports_;  // bank b, port p at b * ports + p
  std::vector<std::uint32_t> next_port_;  // per bank: the port its next access starts on
  std::vector<std::uint64_t> scratch_;
  Counts counts_;
};

}  // namespace npusim
