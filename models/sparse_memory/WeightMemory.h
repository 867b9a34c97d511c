#pragma once
#include <cstdint>

#include <systemc>

#include "models/sparse_memory/DmaPath.h"
#include "sim/stats/StatRegistry.h"

namespace npusim {

// The sparse tensor weight memory (seed001 Fig. 7): a value buffer and an index buffer
// filled from DRAM over a one-way path (bus 430/540) and broadcast to every compute
// unit (buses 815/915: the same weights to all units).
class WeightMemory : public sc_core::sc_module {
 public:
  WeightMemory(sc_core::sc_module_name name, std::uint64_t capacity_bytes, double dma_bytes_per_cycle,
               std::uint64_t request_bytes, StatGroup& stats);

  // Loads `nonzeros` weights (values then indices) starting no earlier than `start`. A
  // kernel larger than the buffers is counted in refills: the parts beyond the first.
  Cycles load(std::uint64_t values_address, std::uint64_t indices_address, std::uint64_t nonzeros, Cycles start);
  std::uint64_t capacity_bytes() const { return capacity_; }

  DmaPath dma;

 private:
  std::uint64_t capacity_;
  std::uint64_t* value_bytes_;
  std::uint64_t* index_bytes_;
  std::uint64_t* refills_;
};

}  // namespace npusim
