#include "models/sparse_compute_unit/SparseComputeUnit.h"

#include <algorithm>

namespace npusim {

SparseComputeUnit::SparseComputeUnit(sc_core::sc_module_name name, ComputeUnitShape shape, ComputeUnitTiming timing,
                                     StatGroup& g)
    : sc_module(name), shape_(shape), timing_(timing), track_(g.owner()) {
  c_.rounds = &g.counter("rounds", "count", "multiplier rounds");
  c_.multiplier_slots = &g.counter("multiplier_slots", "MACs", "rounds x multipliers");
  c_.products = &g.counter("products", "MACs", "multiplications of a non-zero value by a non-zero weight");
  c_.reissued = &g.counter("fifo_reissues", "MACs", "multiplier slots taken by products waiting in the FIFO");
  c_.collisions = &g.counter("collisions", "count", "products deferred to the FIFO by an index collision");
  c_.adjacent_merges = &g.counter("adjacent_merges", "count", "collisions summed by unit 1500's adder block");
  c_.fifo_max = &g.counter("fifo_max", "products", "most products waiting in the FIFO at once");
  c_.iterations = &g.counter("iterations", "count", "unique weights issued (one iteration each)");
  c_.windows = &g.counter("var_windows", "count", "VAR loads and write-backs (cells x output channels with work)");
  c_.min_passes = &g.counter("min_passes", "count", "Benes passes of the VAR read and write MINs");
  c_.nonzeros = &g.counter("input_nonzeros", "count", "non-zeros of the sub-maps this unit read");
  c_.busy_cycles = &g.counter("busy_cycles", "cycles", "cycles spent in rounds and VAR windows");
}

SparseComputeUnit::Run SparseComputeUnit::convolve(const SubmapWork& work) {
  Run r;
  r.stats = convolve_submap(shape_, work);
  const SubmapStats& s = r.stats;
  r.busy = timing_.busy(s);
  *c_.rounds += s.multipliers.rounds;
  *c_.multiplier_slots += s.multiplier_slots(shape_.multipliers);
  *c_.products += s.multipliers.products;
  *c_.reissued += s.multipliers.reissued;
  *c_.collisions += s.arbiter.collisions;
  *c_.adjacent_merges += s.arbiter.adjacent_merges;
  *c_.fifo_max = std::max(*c_.fifo_max, s.arbiter.fifo_max);
  *c_.iterations += s.multipliers.iterations;
  *c_.windows += s.windows;
  // Every round is one pass of the read MIN and one of the write MIN (the arbiter leaves
  // a partial permutation; functional runs check it by routing them).
  *c_.min_passes += 2 * s.multipliers.rounds;
  *c_.nonzeros += s.nonzeros;
  *c_.busy_cycles += r.busy;
  return r;
}

}  // namespace npusim
