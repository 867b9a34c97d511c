#pragma once
#include <cstdint>

#include "models/matrix_unit/stepped/BufferSlots.h"
#include "models/matrix_unit/stepped/ByteStream.h"
#include "models/matrix_unit/stepped/SteppedMasterCircuit.h"

namespace npusim::stepped {

// Rules 3 and 4: one slave's own link from its region of the second storage circuit
// (¶72). In work order it sends, per kw step, one Pci-byte weight row per co slot (a zero
// row for an Aco padding slot) into the slave's second-buffer ring; a row may start once
// the row that held its ring slot has been consumed. The slave replicates the slice Ws
// times into an extended row (¶138).
class SteppedDistributionLink : public ByteStream {
 public:
  SteppedDistributionLink(const BusConfig& bus, std::uint32_t slave, const WorkOrder& order,
                          SecondBufferRing& ring, const SteppedMasterCircuit& master);

 private:
  bool can_begin(Cycles t) const override;
  double begin(Cycles t) override;
  void finish(Cycles usable_from) override;

  std::uint32_t slave_;
  const WfoldPlan& plan_;
  SecondBufferRing& ring_;
  const SteppedMasterCircuit& master_;
  WorkCursor next_;  // the row being sent, or the next one
};

}  // namespace npusim::stepped
