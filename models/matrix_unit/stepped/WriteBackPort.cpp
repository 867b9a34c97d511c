#include "models/matrix_unit/stepped/WriteBackPort.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "models/vector_unit/VectorKernels.h"

namespace npusim::stepped {

std::vector<WriteRequest> write_back_requests(const WfoldPlan& plan, const CoBlock& round,
                                              std::uint32_t wo_valid, std::uint32_t element_bytes) {
  std::vector<WriteRequest> requests;
  const std::uint64_t co_bytes = std::uint64_t(round.count) * element_bytes;
  if (round.count == plan.layer.co && co_bytes <= plan.pco.bytes) {
    for (std::uint32_t wo = 0; wo < wo_valid; wo += plan.pco.fold) {
      std::uint32_t positions = std::min(plan.pco.fold, wo_valid - wo);
      requests.push_back({wo, positions, 0, round.count, positions * co_bytes});
    }
    return requests;
  }
  const std::uint32_t block = plan.pco.bytes / element_bytes;  // channels per Pco block
  for (std::uint32_t wo = 0; wo < wo_valid; ++wo)
    for (std::uint32_t co = 0; co < round.count; co += block) {
      std::uint32_t channels = std::min(block, round.count - co);
      requests.push_back({wo, 1, co, channels, std::uint64_t(channels) * element_bytes});
    }
  return requests;
}

WriteBackPort::WriteBackPort(const MatrixUnitConfig& cfg, const WorkOrder& order, ThirdBuffer& third_buffer,
                             std::vector<SteppedTileTimes>& tiles, const ResultRequant& requant, void* out)
    : cfg_(cfg),
      bus_(cfg.write_back),
      order_(order),
      third_buffer_(third_buffer),
      tiles_(tiles),
      requant_(requant),
      out_(static_cast<std::uint8_t*>(out)),
      element_bytes_(requant.enabled ? 1 : ThirdBuffer::kAccumulatorBytes) {}

bool WriteBackPort::step(Cycles t) {
  if (finished()) return false;
  if (!busy_) {
    // The port is free once the previous tile's last request has issued; its latency
    // runs on while this tile's requests go out.
    if (tiles_[tile_].results_ready > t) return false;
    start_tile(t);
  }
  if (readout_left_ > 0) --readout_left_;
  if (request_ < requests_.size() && --cycles_left_ > 0) return true;
  if (request_ < requests_.size() && ++request_ < requests_.size()) {
    start_request();
    return true;
  }
  if (readout_left_ > 0) return true;  // the readout is slower than the requests
  Cycles end = t + 1 + bus_.latency;
  tiles_[tile_].write_end = end;
  third_buffer_.give_back(tile_, end);
  busy_ = false;
  ++tile_;
  return true;
}

void WriteBackPort::start_tile(Cycles t) {
  place_ = order_.tile(tile_);
  const CoBlock& round = order_.plan().co_blocks[place_.round];
  requests_ = write_back_requests(order_.plan(), round, place_.wo_valid, element_bytes_);
  tiles_[tile_].write_start = t;
  readout_left_ = readout_cycles(order_.plan(), round, cfg_);
  busy_ = true;
  request_ = 0;
  start_request();
}

void WriteBackPort::start_request() {
  const WriteRequest& request = requests_[request_];
  // Rounding of fractional rates must not cost a whole cycle.
  double cycles = std::ceil(double(request.bytes) / bus_.bytes_per_cycle - 1e-9);
  cycles_left_ = std::max<Cycles>(1, static_cast<Cycles>(cycles));
  if (out_ != nullptr) read_out(request);
}

void WriteBackPort::read_out(const WriteRequest& request) {
  const WfoldPlan& plan = order_.plan();
  const std::uint32_t co = plan.layer.co;
  const std::uint32_t first_co = plan.co_blocks[place_.round].first_co + request.first_co;
  for (std::uint32_t p = 0; p < request.positions; ++p) {
    std::uint32_t wo_in_tile = request.first_wo + p;
    std::size_t position = (std::size_t(place_.image) * plan.ho + place_.ho) * plan.wo + place_.first_wo + wo_in_tile;
    for (std::uint32_t c = 0; c < request.channels; ++c) {
      std::uint32_t co_in_round = request.first_co + c;
      WfoldPlan::SlaveSlot where = plan.slave_of(co_in_round);
      const std::uint8_t* sum = third_buffer_.results(tile_, where.slave) +
                                (std::size_t(where.slot) * plan.wo_per_tile + wo_in_tile) * ThirdBuffer::kAccumulatorBytes;
      std::uint8_t* dst = out_ + (position * co + first_co + c) * element_bytes_;
      if (requant_.enabled)
        vector_requant(sum, dst, 1, requant_.shift, requant_.relu,
                       requant_.bias.empty() ? nullptr : &requant_.bias[first_co + c]);
      else
        std::memcpy(dst, sum, ThirdBuffer::kAccumulatorBytes);
    }
  }
}

}  // namespace npusim::stepped
