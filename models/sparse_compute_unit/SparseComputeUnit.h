#pragma once
#include <cstdint>
#include <string>

#include <systemc>

#include "models/sparse_compute_unit/SubmapConvolution.h"
#include "sim/common/Cycles.h"
#include "sim/stats/StatRegistry.h"

namespace npusim {

// One sparse tensor compute unit (seed001 Figs. 13-15) as a block of the cluster: it
// runs process 1600 on its sub-map and keeps its own counters ("core0.sparse.unit3").
class SparseComputeUnit : public sc_core::sc_module {
 public:
  SparseComputeUnit(sc_core::sc_module_name name, ComputeUnitShape shape, ComputeUnitTiming timing,
                    StatGroup& stats);

  struct Run {
    SubmapStats stats;
    Cycles busy = 0;  // rounds and VAR windows
  };
  Run convolve(const SubmapWork& work);
  const ComputeUnitShape& shape() const { return shape_; }
  // Its timeline track and counter owner: "core0.sparse.unit3".
  const std::string& track() const { return track_; }

 private:
  ComputeUnitShape shape_;
  ComputeUnitTiming timing_;
  std::string track_;
  struct Counters {
    std::uint64_t* rounds;
    std::uint64_t* multiplier_slots;
    std::uint64_t* products;
    std::uint64_t* reissued;
    std::uint64_t* collisions;
    std::uint64_t* adjacent_merges;
    std::uint64_t* fifo_max;
    std::uint64_t* iterations;
    std::uint64_t* windows;
    std::uint64_t* min_passes;
    std::uint64_t* nonzeros;
    std::uint64_t* busy_cycles;
  } c_;
};

}  // namespace npusim
