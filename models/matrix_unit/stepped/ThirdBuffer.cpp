#include "models/matrix_unit/stepped/ThirdBuffer.h"

#include <algorithm>
#include <cstring>

namespace npusim::stepped {

namespace {
// Rule 6: D = min(third_buffer_depth, sets of Nco*Ncu*Ws accumulators the bytes hold).
std::uint32_t result_sets(const MatrixUnitConfig& cfg, const WfoldPlan& plan) {
  std::uint64_t set_bytes = std::uint64_t(plan.nco) * plan.wo_per_tile * ThirdBuffer::kAccumulatorBytes;
  std::uint64_t fit = cfg.third_buffer_bytes / set_bytes;
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(cfg.third_buffer_depth, fit)));
}
}  // namespace

ThirdBuffer::ThirdBuffer(const MatrixUnitConfig& cfg, const WfoldPlan& plan, bool with_contents)
    : slave_bytes_(std::size_t(plan.nco) * plan.wo_per_tile * kAccumulatorBytes),
      slaves_(plan.ns),
      free_from_(result_sets(cfg, plan), 0),
      contents_(with_contents ? slave_bytes_ * slaves_ * free_from_.size() : 0) {}

void ThirdBuffer::take(std::uint64_t tile) {
  free_from_[tile % sets()] = kNever;
  if (!contents_.empty()) std::memset(results(tile, 0), 0, slave_bytes_ * slaves_);
}

std::uint8_t* ThirdBuffer::results(std::uint64_t tile, std::uint32_t slave) {
  return contents_.data() + ((tile % sets()) * slaves_ + slave) * slave_bytes_;
}

}  // namespace npusim::stepped
