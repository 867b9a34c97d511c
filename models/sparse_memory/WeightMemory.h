#pragma once
#include <cstdint>
#include <functional>

#include <systemc>

#include "models/sparse_memory/DmaPath.h"
#include "sim/stats/StatRegistry.h"

namespace npusim {

// How a kernel larger than the weight memory is paid for. Uncharged: it streams in whole
// before the units start, as if it fitted (refills only counted). Single: the buffers
// hold one part; the next part loads once the units have used the previous one. Double:
// two sets of half the buffers each; the next part loads into one set while the units
// use the other (the double buffering of the FM memory unit, ¶68-70, applied to the
// weight memory's value and index buffers, which the seed allows to be several, ¶75).
enum class WeightRefill { Uncharged, Single, Double };

// The sparse tensor weight memory (seed001 Fig. 7): a value buffer and an index buffer
// filled from DRAM over a one-way path (bus 430/540) and broadcast to every compute
// unit (buses 815/915: the same weights to all units).
class WeightMemory : public sc_core::sc_module {
 public:
  WeightMemory(sc_core::sc_module_name name, std::uint64_t capacity_bytes, double dma_bytes_per_cycle,
               std::uint64_t request_bytes, WeightRefill refill, StatGroup& stats);

  // Loads `nonzeros` weights (values then indices) starting no earlier than `start`;
  // returns when the units can start: the whole kernel (Uncharged) or its first part.
  Cycles load(std::uint64_t values_address, std::uint64_t indices_address, std::uint64_t nonzeros, Cycles start);
  // The units computed the layer from `first_loaded` to `computed` as if every weight
  // were there. Splits that span over the kernel's parts in proportion to their weights,
  // loads parts 2.. as the buffers free up, and returns when the last part's share is
  // done: `computed` plus the refill stalls.
  Cycles finish_parts(std::uint64_t values_address, std::uint64_t indices_address, std::uint64_t nonzeros,
                      Cycles first_loaded, Cycles computed);
  // The part-by-part timeline alone: parts of `per_part` weights, the first in at
  // `first_loaded`; `load(first, count, issue)` returns when a later part is in. Returns
  // when the units are done with the last part.
  using PartLoad = std::function<Cycles(std::uint64_t first, std::uint64_t count, Cycles issue)>;
  static Cycles refill_timeline(WeightRefill refill, std::uint64_t nonzeros, std::uint64_t per_part,
                                Cycles first_loaded, Cycles computed, const PartLoad& load);
  std::uint64_t capacity_bytes() const { return capacity_; }
  // Weights one part holds: one buffer set.
  std::uint64_t part_nonzeros() const;
  std::uint64_t parts(std::uint64_t nonzeros) const;

  DmaPath dma;

 private:
  Cycles load_range(std::uint64_t values_address, std::uint64_t indices_address, std::uint64_t first,
                    std::uint64_t count, Cycles start);

  std::uint64_t capacity_;
  WeightRefill refill_;
  std::uint64_t* value_bytes_;
  std::uint64_t* index_bytes_;
  std::uint64_t* refills_;
  std::uint64_t* stall_ = nullptr;  // only when refills are charged
};

}  // namespace npusim
