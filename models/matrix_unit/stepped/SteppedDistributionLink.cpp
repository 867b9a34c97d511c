#include "models/matrix_unit/stepped/SteppedDistributionLink.h"

#include <cstring>

namespace npusim::stepped {

SteppedDistributionLink::SteppedDistributionLink(const BusConfig& bus, std::uint32_t slave,
                                                 const WorkOrder& order, SecondBufferRing& ring,
                                                 const SteppedMasterCircuit& master)
    : ByteStream(bus), slave_(slave), plan_(order.plan()), ring_(ring), master_(master), next_(order) {}

bool SteppedDistributionLink::can_begin(Cycles t) const {
  return !next_.done() && ring_.free_for(next_.row(), t) && master_.may_start(next_.segment().tile, t);
}

double SteppedDistributionLink::begin(Cycles) {
  ring_.hold(next_.row());
  if (master_.has_data()) {
    std::uint8_t* row = ring_.bytes(next_.row());
    master_.form_weight_slice(next_.segment(), next_.kw_step(), slave_, next_.co_slot(), row);
    const std::size_t slice = plan_.pci.bytes;
    for (std::uint32_t copy = 1; copy < plan_.ws; ++copy) std::memcpy(row + copy * slice, row, slice);
  }
  return plan_.pci.bytes;
}

void SteppedDistributionLink::finish(Cycles usable_from) {
  ring_.arrive(next_.row(), usable_from);
  next_.advance();
}

}  // namespace npusim::stepped
