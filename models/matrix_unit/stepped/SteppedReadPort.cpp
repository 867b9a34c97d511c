#include "models/matrix_unit/stepped/SteppedReadPort.h"

#include <algorithm>

#include "models/matrix_unit/MasterReads.h"

namespace npusim::stepped {

void WindowArrivals::part_done(std::uint64_t window, Cycles usable_from) {
  Pending& p = pending_[window];
  p.usable_from = std::max(p.usable_from, usable_from);
  if (++p.parts < parts_) return;
  first_buffer_.arrive(window, p.usable_from);
  pending_.erase(window);
}

namespace {
// One unit of "port time" per cycle, no delay after it: the bus latency is added on arrival.
constexpr BusConfig kOneCyclePerCycle{1.0, 0};
}  // namespace

SteppedReadPort::SteppedReadPort(const MatrixUnitConfig& cfg, const WorkOrder& order, const FirstBuffer& first_buffer,
                                 const SteppedMasterCircuit& master, WindowArrivals& arrivals)
    : ByteStream(kOneCyclePerCycle),
      cfg_(cfg),
      order_(order),
      first_buffer_(first_buffer),
      master_(master),
      arrivals_(arrivals) {}

bool SteppedReadPort::can_begin(Cycles t) const {
  if (window_ >= order_.segments()) return false;
  return first_buffer_.may_load(window_, t) && master_.may_start(order_.segment(window_).tile, t);
}

double SteppedReadPort::begin(Cycles t) {
  const Segment segment = order_.segment(window_);
  const WindowReads reads = window_reads(order_.plan(), cfg_, segment.rows, segment.bci);
  requests_ += reads.ram_requests;
  const Cycles cycles = nram_read_cycles(reads, cfg_);
  began_ = t;
  empty_ = cycles == 0;
  return double(cycles);
}

// ByteStream reports `t + 1 + latency` with latency 0: the cycle after the last one.
void SteppedReadPort::finish(Cycles ended) {
  arrivals_.reads_done(window_, ended);
  // Reads that take no cycle are through when they begin (the ByteStream reports the next cycle).
  if (order_.plan().reads.mode == DataRowRead::Relay) ended_.emplace(window_, empty_ ? began_ : ended);
  ++window_;
}

bool SteppedReadPort::through(std::uint64_t window, Cycles t) const {
  const auto it = ended_.find(window);
  return it != ended_.end() && it->second <= t;
}

SteppedRelayPort::SteppedRelayPort(const MatrixUnitConfig& cfg, const WorkOrder& order,
                                   const FirstBuffer& first_buffer, const SteppedMasterCircuit& master,
                                   SteppedReadPort& reads, WindowArrivals& arrivals)
    : ByteStream(kOneCyclePerCycle),
      cfg_(cfg),
      order_(order),
      first_buffer_(first_buffer),
      master_(master),
      reads_(reads),
      arrivals_(arrivals) {}

bool SteppedRelayPort::can_begin(Cycles t) const {
  if (window_ >= order_.segments()) return false;
  const Segment segment = order_.segment(window_);
  if (segment.bci == 0 && !reads_.through(window_, t)) return false;  // block 0 fills the relay first
  return first_buffer_.may_load(window_, t) && master_.may_start(segment.tile, t);
}

double SteppedRelayPort::begin(Cycles) {
  const Segment segment = order_.segment(window_);
  return double(relay_read_cycles(window_reads(order_.plan(), cfg_, segment.rows, segment.bci), cfg_));
}

void SteppedRelayPort::finish(Cycles ended) {
  arrivals_.reads_done(window_, ended);
  reads_.forget(window_);
  ++window_;
}

}  // namespace npusim::stepped
