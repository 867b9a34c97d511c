#pragma once
#include <cstdint>

#include "models/matrix_unit/stepped/BufferSlots.h"
#include "models/matrix_unit/stepped/ByteStream.h"
#include "models/matrix_unit/stepped/SteppedMasterCircuit.h"
#include "models/matrix_unit/stepped/SteppedReadPort.h"

namespace npusim::stepped {

// Rule 1: the broadcast bus sends the windows one at a time in work order, each into its
// first-buffer slot once that is free (rule 1a: the master's NRAM reads run beside it). All slaves receive the same bytes, so one first
// buffer stands for all of them.
class SteppedBroadcastBus : public ByteStream {
 public:
  SteppedBroadcastBus(const BusConfig& bus, const WorkOrder& order, FirstBuffer& first_buffer,
                      const SteppedMasterCircuit& master, std::vector<SteppedTileTimes>& tiles,
                      WindowArrivals& arrivals);

 private:
  bool can_begin(Cycles t) const override;
  double begin(Cycles t) override;
  void finish(Cycles usable_from) override;

  const WorkOrder& order_;
  FirstBuffer& first_buffer_;
  const SteppedMasterCircuit& master_;
  std::vector<SteppedTileTimes>& tiles_;  // records when each tile's first window starts
  WindowArrivals& arrivals_;              // the window is usable once its reads are through too
  std::uint64_t window_ = 0;  // the window being sent, or the next one
};

}  // namespace npusim::stepped
