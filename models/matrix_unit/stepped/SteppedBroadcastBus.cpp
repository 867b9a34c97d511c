#include "models/matrix_unit/stepped/SteppedBroadcastBus.h"

namespace npusim::stepped {

SteppedBroadcastBus::SteppedBroadcastBus(const BusConfig& bus, const WorkOrder& order,
                                         FirstBuffer& first_buffer, const SteppedMasterCircuit& master,
                                         std::vector<SteppedTileTimes>& tiles, WindowArrivals& arrivals)
    : ByteStream(bus), order_(order), first_buffer_(first_buffer), master_(master), tiles_(tiles), arrivals_(arrivals) {}

bool SteppedBroadcastBus::can_begin(Cycles t) const {
  return window_ < order_.segments() && first_buffer_.free_for(window_, t) &&
         master_.may_start(order_.segment(window_).tile, t);
}

double SteppedBroadcastBus::begin(Cycles t) {
  Segment segment = order_.segment(window_);
  if (window_ == order_.first_segment(segment.tile)) tiles_[segment.tile].fill_start = t;
  first_buffer_.hold(window_);
  if (master_.has_data()) master_.form_window(segment, first_buffer_.bytes(window_));
  return double(segment.rows) * order_.plan().m_bytes;
}

void SteppedBroadcastBus::finish(Cycles usable_from) {
  arrivals_.bus_done(window_, usable_from);
  ++window_;
}

}  // namespace npusim::stepped
