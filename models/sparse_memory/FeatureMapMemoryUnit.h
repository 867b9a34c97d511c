#pragma once
#include <cstdint>
#include <memory>

#include <systemc>

#include "models/sparse_memory/DmaPath.h"
#include "sim/stats/StatRegistry.h"

namespace npusim {

// A sparse tensor feature-map memory unit (seed001 Fig. 6): a write switch and a read
// switch over two buffer sets, each a value buffer and an index buffer, behind its own
// DMA path to DRAM. A sub-map larger than one set arrives in parts: while the compute
// unit works on one set the next part fills the other (double buffering, ¶68-70).
class FeatureMapMemoryUnit : public sc_core::sc_module {
 public:
  FeatureMapMemoryUnit(sc_core::sc_module_name name, std::uint64_t buffer_set_bytes, double dma_bytes_per_cycle,
                       std::uint64_t request_bytes, StatGroup& stats);

  // Bytes of one buffer set: value buffer + index buffer.
  std::uint64_t buffer_set_bytes() const { return set_bytes_; }
  // Parts a sub-map of `nonzeros` (1 value byte + 4 index bytes each) arrives in.
  std::uint64_t parts(std::uint64_t nonzeros) const;
  // Loads part `part` of `parts` into the set it alternates to, starting no earlier than
  // `start`; the values and indices come from their two DRAM regions.
  Cycles load_part(std::uint64_t values_address, std::uint64_t indices_address, std::uint64_t nonzeros,
                   std::uint64_t part, std::uint64_t parts, Cycles start);
  // The same for a sub-map in the recursive format (models/compression_block): its value
  // bytes and index bytes, which have no fixed ratio.
  std::uint64_t parts_of_bytes(std::uint64_t value_bytes, std::uint64_t index_bytes) const;
  Cycles load_bytes_part(std::uint64_t values_address, std::uint64_t indices_address, std::uint64_t value_bytes,
                         std::uint64_t index_bytes, std::uint64_t part, std::uint64_t parts, Cycles start);
  // Output sub-map rows leave through the read switch and the DMA path.
  Cycles store(std::uint64_t address, std::uint64_t bytes, const std::uint8_t* data, Cycles start);

  DmaPath dma;

 private:
  std::uint64_t set_bytes_;
  struct Counters {
    std::uint64_t* value_bytes;
    std::uint64_t* index_bytes;
    std::uint64_t* output_bytes;
    std::uint64_t* buffer_swaps;
  } counters_;
};

}  // namespace npusim
