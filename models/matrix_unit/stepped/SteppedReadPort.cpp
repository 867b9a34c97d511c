#include "models/matrix_unit/stepped/SteppedReadPort.h"

#include <algorithm>

#include "models/matrix_unit/MasterReads.h"

namespace npusim::stepped {

void WindowArrivals::part_done(std::uint64_t window, Cycles usable_from) {
  const auto it = first_part_.find(window);
  if (it == first_part_.end()) {
    first_part_.emplace(window, usable_from);
    return;
  }
  first_buffer_.arrive(window, std::max(it->second, usable_from));
  first_part_.erase(it);
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

double SteppedReadPort::begin(Cycles) {
  const Segment segment = order_.segment(window_);
  const WindowReads reads = window_reads(order_.plan(), cfg_, segment.rows, segment.bci);
  requests_ += reads.ram_requests;
  return double(window_read_cycles(reads, cfg_));
}

// ByteStream reports `t + 1 + latency` with latency 0: the cycle after the last one.
void SteppedReadPort::finish(Cycles ended) {
  arrivals_.reads_done(window_, ended);
  ++window_;
}

}  // namespace npusim::stepped
