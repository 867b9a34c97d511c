#pragma once
#include <cstdint>
#include <vector>

#include "models/matrix_unit/stepped/BufferSlots.h"
#include "models/matrix_unit/stepped/CycleSteppedMatrixUnit.h"
#include "models/matrix_unit/stepped/ThirdBuffer.h"

namespace npusim::stepped {

// Rules 5 to 7: the CU arrays of all slaves, in lockstep. Each cycle at most one compute
// cycle issues, in work order (segment, kw step, co slot), when its tile holds a result
// set (taken at the tile's first compute cycle), its window is usable and its weight row
// is usable in every slave. With data, each slave's Ncu CUs multiply their data rows (Ws
// positions each, slid by the kw step) with the extended weight row and add the Ws
// Pci-lane sums into the tile's result set (¶69, ¶138).
class CuArray {
 public:
  enum class Outcome { Issued, Finished, WaitResultSet, WaitWindow, WaitWeights };

  CuArray(const WorkOrder& order, FirstBuffer& first_buffer, std::vector<SecondBufferRing>& rings,
          ThirdBuffer& third_buffer, std::vector<SteppedTileTimes>& tiles, Cycles mac_latency,
          bool with_data);
  Outcome step(Cycles t);

  // One slave's compute cycle on raw buffer bytes (int8 -> int32 or float32 -> float32).
  using SlaveKernel = void (*)(const std::uint8_t* window, std::uint32_t kw_step, const std::uint8_t* weights,
                               std::uint8_t* sums, const WfoldPlan& plan);

 private:
  Outcome wait_reason(Cycles t) const;  // Issued when nothing is missing
  void compute();

  const WorkOrder& order_;
  FirstBuffer& first_buffer_;
  std::vector<SecondBufferRing>& rings_;
  ThirdBuffer& third_buffer_;
  std::vector<SteppedTileTimes>& tiles_;
  Cycles mac_latency_;
  SlaveKernel kernel_ = nullptr;  // null: timing only
  WorkCursor cursor_;
};

}  // namespace npusim::stepped
