#include "models/sparse_memory/FeatureMapMemoryUnit.h"

#include <algorithm>

#include "models/compression_block/CompressedRows.h"

namespace npusim {

FeatureMapMemoryUnit::FeatureMapMemoryUnit(sc_core::sc_module_name name, std::uint64_t buffer_set_bytes,
                                           double dma_bytes_per_cycle, std::uint64_t request_bytes,
                                           StatGroup& stats)
    : sc_module(name), dma("dma_port", dma_bytes_per_cycle, request_bytes), set_bytes_(buffer_set_bytes) {
  counters_.value_bytes = &stats.counter("value_bytes", "bytes", "sub-map values loaded from DRAM");
  counters_.index_bytes = &stats.counter("index_bytes", "bytes", "sub-map indices loaded from DRAM");
  counters_.output_bytes = &stats.counter("output_bytes", "bytes", "output sub-map bytes stored to DRAM");
  counters_.buffer_swaps = &stats.counter("buffer_swaps", "count", "parts loaded into alternating buffer sets");
}

std::uint64_t FeatureMapMemoryUnit::parts(std::uint64_t nonzeros) const {
  const std::uint64_t per_set = std::max<std::uint64_t>(1, set_bytes_ / kCompressedEntryBytes);
  return std::max<std::uint64_t>(1, (nonzeros + per_set - 1) / per_set);
}

Cycles FeatureMapMemoryUnit::load_part(std::uint64_t values_address, std::uint64_t indices_address,
                                       std::uint64_t nonzeros, std::uint64_t part, std::uint64_t parts,
                                       Cycles start) {
  const std::uint64_t first = nonzeros * part / parts, count = nonzeros * (part + 1) / parts - first;
  const Cycles v = dma.transfer(false, values_address + first, count, nullptr, start);
  const Cycles i = dma.transfer(false, indices_address + 4 * first, 4 * count, nullptr, start);
  *counters_.value_bytes += count;
  *counters_.index_bytes += 4 * count;
  ++*counters_.buffer_swaps;
  return std::max(v, i);
}

std::uint64_t FeatureMapMemoryUnit::parts_of_bytes(std::uint64_t value_bytes, std::uint64_t index_bytes) const {
  const std::uint64_t per_set = std::max<std::uint64_t>(1, set_bytes_);
  return std::max<std::uint64_t>(1, (value_bytes + index_bytes + per_set - 1) / per_set);
}

Cycles FeatureMapMemoryUnit::load_bytes_part(std::uint64_t values_address, std::uint64_t indices_address,
                                             std::uint64_t value_bytes, std::uint64_t index_bytes, std::uint64_t part,
                                             std::uint64_t parts, Cycles start) {
  const std::uint64_t v0 = value_bytes * part / parts, vn = value_bytes * (part + 1) / parts - v0;
  const std::uint64_t i0 = index_bytes * part / parts, in = index_bytes * (part + 1) / parts - i0;
  const Cycles v = dma.transfer(false, values_address + v0, vn, nullptr, start);
  const Cycles i = dma.transfer(false, indices_address + i0, in, nullptr, start);
  *counters_.value_bytes += vn;
  *counters_.index_bytes += in;
  ++*counters_.buffer_swaps;
  return std::max(v, i);
}

Cycles FeatureMapMemoryUnit::store(std::uint64_t address, std::uint64_t bytes, const std::uint8_t* data,
                                   Cycles start) {
  *counters_.output_bytes += bytes;
  return dma.transfer(true, address, bytes, const_cast<std::uint8_t*>(data), start);
}

}  // namespace npusim
