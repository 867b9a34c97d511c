#pragma once
#include <cstdint>

#include "models/matrix_unit/MatrixUnitConfig.h"
#include "models/matrix_unit/stepped/BufferSlots.h"
#include "models/matrix_unit/stepped/ByteStream.h"
#include "models/matrix_unit/stepped/SteppedMasterCircuit.h"

namespace npusim::stepped {

// Rule 1: the broadcast bus sends the windows one at a time in work order, each into its
// first-buffer slot once that is free; a window is usable `latency` cycles after its last
// byte. All slaves receive the same bytes, so one first buffer stands for all of them.
class SteppedBroadcastBus {
 public:
  SteppedBroadcastBus(const BusConfig& bus, const WorkOrder& order, FirstBuffer& first_buffer,
                      const SteppedMasterCircuit& master);
  bool step(Cycles t) { return stream_.step(t, *this); }

 private:
  friend class ByteStream;
  bool can_begin(Cycles t) const;
  double begin(Cycles t);
  void finish(Cycles t);

  ByteStream stream_;
  Cycles latency_;
  const WorkOrder& order_;
  FirstBuffer& first_buffer_;
  const SteppedMasterCircuit& master_;
  std::uint64_t window_ = 0;  // the window being sent, or the next one
};

}  // namespace npusim::stepped
