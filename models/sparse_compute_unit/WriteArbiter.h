#pragma once
#include <cstdint>
#include <vector>

namespace npusim {

// The three compute units of seed001 differ in how many weights share a round and
// in what happens when two products of a round land on one output index.
enum class SparseUnitKind {
  Unit1300,  // one unique weight per iteration: products of a round never collide
  Unit1400,  // several weights; write-arbiter MIN 1425 defers colliding products to FIFO 2000
  Unit1500,  // as 1400, plus the adder block 1535 and select unit 1545 (see WriteArbiter)
};

// A product on its way from a multiplier to the variable accumulator register.
struct Product {
  std::int64_t value = 0;
  std::int32_t data = 0, weight = 0;  // its operands, for statistics and the worked examples
  std::uint32_t var_index = 0;        // VAR location (row * side + col)
  std::uint32_t weight_id = 0;        // which unique weight of the stream it used
};

struct ArbiterStats {
  std::uint64_t collisions = 0;       // products deferred to the FIFO
  std::uint64_t adjacent_merges = 0;  // unit 1500: colliding neighbours summed by the adder block
  std::uint64_t fifo_max = 0;         // most products waiting at once
};

// The write-arbiter MIN (1425 / 1525) with its merge FIFO 2000 (seed001 §2.12). Products
// reach it in multiplier order, the FIFO's older products first. The first product per
// output index passes; a later one waits in the FIFO for the next round, which then
// issues that many fewer new data values (Fig. 20b). With `merge_neighbours` (unit 1500's
// adder block and select unit, ¶178-184) a product that shares its index with the one
// in the previous multiplier is summed with it instead of waiting. Fig. 20 shows unit
// 1500 using the FIFO, so which of the two it does is a config choice.
class WriteArbiter {
 public:
  WriteArbiter(bool merge_neighbours, std::uint32_t var_locations)
      : merge_neighbours_(merge_neighbours), stamp_(var_locations, 0) {}

  // Splits `round` into products that go on to the accumulator (`passed`) and products
  // that wait (`fifo`). Both outputs are cleared first.
  void arbitrate(const std::vector<Product>& round, std::vector<Product>& passed, std::vector<Product>& fifo);
  const ArbiterStats& stats() const { return stats_; }

 private:
  bool merge_neighbours_;
  std::vector<std::uint64_t> stamp_;  // round number that last wrote each VAR location
  std::vector<int> owner_;            // index into `passed` of that product
  std::uint64_t round_ = 0;
  ArbiterStats stats_;
};

}  // namespace npusim
