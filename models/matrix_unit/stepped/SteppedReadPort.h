#pragma once
#include <cstdint>
#include <map>

#include "models/matrix_unit/stepped/BufferSlots.h"
#include "models/matrix_unit/stepped/ByteStream.h"
#include "models/matrix_unit/stepped/SteppedMasterCircuit.h"

namespace npusim::stepped {

// A window reaches the first buffer in two parts that run side by side: the master's NRAM
// reads that form its rows (rule 1a) and its bytes on the broadcast bus (rule 1). It is
// usable once both are through; whichever finishes second hands it to the first buffer.
class WindowArrivals {
 public:
  WindowArrivals(FirstBuffer& first_buffer, Cycles bus_latency) : first_buffer_(first_buffer), latency_(bus_latency) {}
  void bus_done(std::uint64_t window, Cycles usable_from) { part_done(window, usable_from); }
  // The read port's last cycle on the window was `ended` - 1; the bus latency follows it.
  void reads_done(std::uint64_t window, Cycles ended) { part_done(window, ended + latency_); }

 private:
  void part_done(std::uint64_t window, Cycles usable_from);

  FirstBuffer& first_buffer_;
  Cycles latency_;
  std::map<std::uint64_t, Cycles> first_part_;  // windows with one part through: when it is usable
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
};

}  // namespace npusim::stepped
