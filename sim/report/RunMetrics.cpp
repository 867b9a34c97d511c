#include "sim/report/RunMetrics.h"

namespace npusim {

Cycles idle_cycles(const EngineStats& e, Cycles total) {
  const Cycles used = e.busy + e.stall;
  return used >= total ? 0 : total - used;
}

double engine_utilization(const EngineStats& e, Cycles total) {
  return total == 0 ? 0.0 : static_cast<double>(e.busy) / static_cast<double>(total);
}

double bandwidth_utilization(const PortStats& p, Cycles total) {
  const double capacity = p.bytes_per_cycle * static_cast<double>(total);
  if (capacity <= 0) return 0.0;
  return static_cast<double>(p.bytes_read + p.bytes_written) / capacity;
}

double cycles_to_us(Cycles c, double clock_mhz) {
  return clock_mhz <= 0 ? 0.0 : static_cast<double>(c) / clock_mhz;
}

std::uint64_t run_macs(const RunStats& stats) {
  std::uint64_t macs = 0;
  for (const auto& e : stats.engines) macs += e.macs;
  return macs;
}

}  // namespace npusim
