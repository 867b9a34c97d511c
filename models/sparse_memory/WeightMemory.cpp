#include "models/sparse_memory/WeightMemory.h"

#include <algorithm>

namespace npusim {

WeightMemory::WeightMemory(sc_core::sc_module_name name, std::uint64_t capacity_bytes, double dma_bytes_per_cycle,
                           std::uint64_t request_bytes, StatGroup& stats)
    : sc_module(name), dma("dma_port", dma_bytes_per_cycle, request_bytes), capacity_(capacity_bytes) {
  value_bytes_ = &stats.counter("weight_value_bytes", "bytes", "non-zero weight values loaded from DRAM");
  index_bytes_ = &stats.counter("weight_index_bytes", "bytes", "weight indices loaded from DRAM");
  refills_ = &stats.counter("weight_refills", "count", "kernel parts beyond the first that did not fit the buffers");
}

Cycles WeightMemory::load(std::uint64_t values_address, std::uint64_t indices_address, std::uint64_t nonzeros,
                          Cycles start) {
  const Cycles v = dma.transfer(false, values_address, nonzeros, nullptr, start);
  const Cycles i = dma.transfer(false, indices_address, 4 * nonzeros, nullptr, start);
  *value_bytes_ += nonzeros;
  *index_bytes_ += 4 * nonzeros;
  const std::uint64_t bytes = 5 * nonzeros;
  if (bytes > capacity_) *refills_ += (bytes + capacity_ - 1) / capacity_ - 1;
  return std::max(v, i);
}

}  // namespace npusim
