#include "models/matrix_unit/stepped/CuArray.h"

#include <cstring>

#include "sim/tensor/ElementAccess.h"

namespace npusim::stepped {

namespace {

// Ncu CUs of one slave; CU u takes window positions u*Ws + kw_step .. + Ws - 1 and adds
// each Pci-lane dot product (lanes first, the hardware's order) to its output's sum.
template <typename T, typename Acc>
void slave_compute_cycle(const std::uint8_t* window, std::uint32_t kw_step, const std::uint8_t* weights,
                         std::uint8_t* sums, const WfoldPlan& plan) {
  const std::uint32_t pci = plan.pci_elems;
  for (std::uint32_t out = 0; out < plan.ncu * plan.ws; ++out) {
    const std::uint8_t* data = window + std::size_t(out + kw_step) * pci * sizeof(T);
    const std::uint8_t* weight = weights + std::size_t(out % plan.ws) * pci * sizeof(T);
    Acc partial = 0;
    for (std::uint32_t lane = 0; lane < pci; ++lane)
      partial += Acc(load_element<T>(data, lane)) * Acc(load_element<T>(weight, lane));
    store_element<Acc>(sums, out, load_element<Acc>(sums, out) + partial);
  }
}

}  // namespace

CuArray::CuArray(const WorkOrder& order, FirstBuffer& first_buffer, std::vector<SecondBufferRing>& rings,
                 ThirdBuffer& third_buffer, std::vector<SteppedTileTimes>& tiles, Cycles mac_latency,
                 bool with_data)
    : order_(order),
      first_buffer_(first_buffer),
      rings_(rings),
      third_buffer_(third_buffer),
      tiles_(tiles),
      mac_latency_(mac_latency),
      cursor_(order) {
  if (with_data)
    kernel_ = order.plan().element_bytes == 1 ? slave_compute_cycle<std::int8_t, std::int32_t>
                                              : slave_compute_cycle<float, float>;
}

CuArray::Outcome CuArray::wait_reason(Cycles t) const {
  if (cursor_.first_of_tile() && !third_buffer_.can_take(cursor_.segment().tile, t)) return Outcome::WaitResultSet;
  if (!first_buffer_.usable(cursor_.segment_index(), t)) return Outcome::WaitWindow;
  for (const SecondBufferRing& ring : rings_)
    if (!ring.usable(cursor_.row(), t)) return Outcome::WaitWeights;
  return Outcome::Issued;
}

CuArray::Outcome CuArray::step(Cycles t) {
  if (cursor_.done()) return Outcome::Finished;
  Outcome wait = wait_reason(t);
  if (wait != Outcome::Issued) return wait;
  const std::uint64_t tile = cursor_.segment().tile;
  if (cursor_.first_of_tile()) {
    third_buffer_.take(tile);
    tiles_[tile].first_compute = t;
  }
  if (kernel_ != nullptr) compute();
  for (SecondBufferRing& ring : rings_) ring.release(cursor_.row(), t);
  if (cursor_.last_of_segment()) first_buffer_.release(cursor_.segment_index(), t);
  if (cursor_.last_of_tile()) {
    tiles_[tile].last_compute = t;
    tiles_[tile].results_ready = t + 1 + mac_latency_;
  }
  cursor_.advance();
  return Outcome::Issued;
}

void CuArray::compute() {
  const WfoldPlan& plan = order_.plan();
  const std::uint8_t* window = first_buffer_.bytes(cursor_.segment_index());
  const std::uint64_t tile = cursor_.segment().tile;
  const std::size_t slot_offset = std::size_t(cursor_.co_slot()) * plan.wo_per_tile * ThirdBuffer::kAccumulatorBytes;
  for (std::uint32_t slave = 0; slave < plan.ns; ++slave)
    kernel_(window, cursor_.kw_step(), rings_[slave].bytes(cursor_.row()),
            third_buffer_.results(tile, slave) + slot_offset, plan);
}

}  // namespace npusim::stepped
