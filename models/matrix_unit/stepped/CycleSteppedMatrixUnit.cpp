#include "models/matrix_unit/stepped/CycleSteppedMatrixUnit.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/matrix_unit/stepped/CuArray.h"
#include "models/matrix_unit/stepped/SteppedBroadcastBus.h"
#include "models/matrix_unit/stepped/SteppedDistributionLink.h"
#include "models/matrix_unit/stepped/WriteBackPort.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace stepped {

// The whole unit for one instruction: the master's broadcast bus and first buffer, each
// slave's link and second-buffer ring, the lockstep CU arrays, the third buffer and the
// write-back port, stepped together one cycle at a time. Every hand-over between them is
// stamped with the first cycle it counts in (always later than the cycle that made it),
// so the order in which step() visits the blocks does not matter.
class CycleSteppedMatrixUnit {
 public:
  CycleSteppedMatrixUnit(const MatrixUnitConfig& cfg, const WfoldPlan& plan, const ResultRequant& requant,
                         const SteppedConvData& data)
      : order_(plan),
        tiles_(plan.tiles, SteppedTileTimes{kNever, kNever, kNever, kNever, kNever, kNever}),
        third_buffer_(cfg, plan, data.out != nullptr),
        master_(order_, data, tiles_, third_buffer_.sets()),
        first_buffer_(first_buffer_slots(plan), data.out ? std::size_t(largest_window_rows(plan)) * plan.m_bytes : 0),
        rings_(plan.ns, SecondBufferRing(plan.second_buffer_ring, data.out ? plan.m_bytes : 0)),
        arrivals_(first_buffer_, cfg.broadcast_bus.latency, plan.reads.mode == DataRowRead::Relay ? 3 : 2),
        reads_(cfg, order_, first_buffer_, master_, arrivals_),
        relay_(cfg, order_, first_buffer_, master_, reads_, arrivals_),
        bus_(cfg.broadcast_bus, order_, first_buffer_, master_, tiles_, arrivals_),
        cus_(order_, first_buffer_, rings_, third_buffer_, tiles_, cfg.mac_latency, data.out != nullptr),
        port_(cfg, order_, third_buffer_, tiles_, requant, data.out),
        // The longest a correct unit can go without moving anything is one latency of each kind.
        idle_limit_(cfg.broadcast_bus.latency + cfg.distribution_bus.latency + cfg.mac_latency +
                    cfg.write_back.latency + 4) {
    links_.reserve(plan.ns);
    for (std::uint32_t s = 0; s < plan.ns; ++s)
      links_.emplace_back(cfg.distribution_bus, s, order_, rings_[s], master_);
  }

  bool finished() const { return port_.finished(); }

  void step() {
    bool active = reads_.step(now_);
    if (order_.plan().reads.mode == DataRowRead::Relay) active |= relay_.step(now_);
    active |= bus_.step(now_);
    for (SteppedDistributionLink& link : links_) active |= link.step(now_);
    active |= count(cus_.step(now_));
    active |= port_.step(now_);
    if (active) last_active_ = now_;
    if (now_ - last_active_ > idle_limit_)
      throw std::logic_error("cycle-stepped matrix unit: nothing moved for " + std::to_string(idle_limit_) +
                             " cycles at cycle " + std::to_string(now_));
    ++now_;
  }

  SteppedConvRun run() {
    while (!finished()) step();
    run_.tiles = tiles_;
    run_.total = tiles_.back().write_end;
    run_.window_slots = first_buffer_.slots();
    run_.result_sets = third_buffer_.sets();
    run_.read_requests = reads_.requests();
    return run_;
  }

 private:
  bool count(CuArray::Outcome outcome) {
    switch (outcome) {
      case CuArray::Outcome::Issued: ++run_.compute_cycles; return true;
      case CuArray::Outcome::WaitResultSet: ++run_.stall_result_set; break;
      case CuArray::Outcome::WaitWindow: ++run_.stall_window; break;
      case CuArray::Outcome::WaitWeights: ++run_.stall_weights; break;
      case CuArray::Outcome::Finished: break;
    }
    return false;
  }

  WorkOrder order_;
  std::vector<SteppedTileTimes> tiles_;
  ThirdBuffer third_buffer_;
  SteppedMasterCircuit master_;
  FirstBuffer first_buffer_;
  std::vector<SecondBufferRing> rings_;
  WindowArrivals arrivals_;
  SteppedReadPort reads_;
  SteppedRelayPort relay_;
  SteppedBroadcastBus bus_;
  std::vector<SteppedDistributionLink> links_;
  CuArray cus_;
  WriteBackPort port_;
  Cycles idle_limit_;
  Cycles now_ = 0, last_active_ = 0;
  SteppedConvRun run_;
};

void check_inputs(const MatrixUnitConfig& cfg, const WfoldPlan& plan, const ResultRequant& requant,
                  const SteppedConvData& data) {
  if (!(cfg.write_back.bytes_per_cycle > 0))
    throw InputError("hardware config", "/core/matrix/write_back/bytes_per_cycle", "must be positive");
  int given = (data.ifmap != nullptr) + (data.weights != nullptr) + (data.out != nullptr);
  if (given != 0 && given != 3)
    throw std::invalid_argument("run_cycle_stepped_conv: give ifmap, weights and out together, or none");
  if (given == 3 && plan.element_bytes != 1 && plan.element_bytes != 4)
    throw std::invalid_argument("run_cycle_stepped_conv: no data path for " + std::to_string(plan.element_bytes) +
                                "-byte elements (int8 and float32 only)");
  if (requant.enabled && plan.element_bytes != 1)
    throw std::invalid_argument("run_cycle_stepped_conv: requantize needs int8 inputs (int32 results)");
}

}  // namespace stepped

SteppedConvRun run_cycle_stepped_conv(const MatrixUnitConfig& cfg, const WfoldPlan& plan,
                                      const ResultRequant& requant, const SteppedConvData& data) {
  stepped::check_inputs(cfg, plan, requant, data);
  return stepped::CycleSteppedMatrixUnit(cfg, plan, requant, data).run();
}

}  // namespace npusim
