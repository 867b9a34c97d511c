#pragma once
#include <cstdint>
#include <map>

#include "models/matrix_unit/stepped/BufferSlots.h"
#include "models/matrix_unit/stepped/ByteStream.h"
#include "models/matrix_unit/stepped/SteppedMasterCircuit.h"

namespace npusim::stepped {

// A window reaches the first buffer in parts that run side by side: its bytes on the broadcast
// bus (rule 1), the master's NRAM reads that form its rows (rule 1a) and, with the relay, the
// relay's reads of its rows. It is usable once all are through; the last hands it over.
class WindowArrivals {
 public:
  WindowArrivals(FirstBuffer& first_buffer, Cycles bus_latency, std::uint32_t parts)
      : first_buffer_(first_buffer), latency_(bus_latency), parts_(parts) {}
  void bus_done(std::uint64_t window, Cycles usable_from) { part_done(window, usable_from); }
  // A read port's last cycle on the window was `ended` - 1; the bus latency follows it.
  void reads_done(std::uint64_t window, Cycles ended) { part_done(window, ended + latency_); }

 private:
  void part_done(std::uint64_t window, Cycles usable_from);

  FirstBuffer& first_buffer_;
  Cycles latency_;
  std::uint32_t parts_;
  struct Pending {
    std::uint32_t parts = 0;
    Cycles usable_from = 0;
  };
  std::map<std::uint64_t, Pending> pending_;  // windows with some parts through
};

// Rule 1a: the master's read port on NRAM forms the windows in work order, one request after
// another (window_read_cycles each window), under the same gates as the bus: the window's
// first-buffer slot is free (or the bus already holds it for this window) and its tile may
// start. It moves "cycles of port time" at one per cycle.
class SteppedReadPort : public ByteStream {
 public:
  SteppedReadPort(const MatrixUnitConfig& cfg, const WorkOrder& order, const FirstBuffer& first_buffer,
                  const SteppedMasterCircuit& master, WindowArrivals& arrivals);
  std::uint64_t requests() const { return requests_; }
  // Whether the window's NRAM reads were through before cycle t (the relay reads its rows then).
  bool through(std::uint64_t window, Cycles t) const;
  void forget(std::uint64_t window) { ended_.erase(window); }

 private:
  bool can_begin(Cycles t) const override;
  double begin(Cycles t) override;
  void finish(Cycles ended) override;

  const MatrixUnitConfig& cfg_;
  const WorkOrder& order_;
  const FirstBuffer& first_buffer_;
  const SteppedMasterCircuit& master_;
  WindowArrivals& arrivals_;
  std::uint64_t window_ = 0;
  std::uint64_t requests_ = 0;  // NRAM requests issued so far
  std::map<std::uint64_t, Cycles> ended_;  // relay mode: windows the relay has not read yet
  Cycles began_ = 0;                       // the current window's first cycle
  bool empty_ = false;                     // its reads take no cycle
};

// With the relay (rule 1a): its own read port gives each window's data rows out of its
// registers, read_cycles each, in work order; a window whose block 0 fills the relay waits for
// those NRAM requests to be through.
class SteppedRelayPort : public ByteStream {
 public:
  SteppedRelayPort(const MatrixUnitConfig& cfg, const WorkOrder& order, const FirstBuffer& first_buffer,
                   const SteppedMasterCircuit& master, SteppedReadPort& reads, WindowArrivals& arrivals);

 private:
  bool can_begin(Cycles t) const override;
  double begin(Cycles t) override;
  void finish(Cycles ended) override;

  const MatrixUnitConfig& cfg_;
  const WorkOrder& order_;
  const FirstBuffer& first_buffer_;
  const SteppedMasterCircuit& master_;
  SteppedReadPort& reads_;
  WindowArrivals& arrivals_;
  std::uint64_t window_ = 0;
};

}  // namespace npusim::stepped
