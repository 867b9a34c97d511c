#pragma once
#include <cstdint>
#include <vector>

#include <systemc>

#include "models/fetch_ml/FetchMlStateMachine.h"

namespace npusim {

// What one ml_matmul reads and writes, as register-file byte pointers.
struct MatmulOperands {
  const FetchedTile* image = nullptr;  // how the image tile was fetched (unrolled or compact)
  PositionRange positions;
  std::uint64_t filters = 0;
  const std::uint8_t* ifm = nullptr;
  const std::uint8_t* weights = nullptr;  // [filters, K]
  std::uint8_t* results = nullptr;        // [positions, filters]
};

// Shader datapath 204 (seed003 §1.6): the SIMD lanes that multiply the unrolled
// filter matrix by the unrolled image, reading the register file through the
// read-address mux. A compact tile is unrolled on that read path: each entry's
// register address comes from address generator 209, padding reads as zero.
// int8 -> int32 (optionally requantized to int8 on the way out) and float32.
class SimdDatapath : public sc_core::sc_module {
 public:
  explicit SimdDatapath(sc_core::sc_module_name name) : sc_module(name) {}

  // shift < 0: keep the accumulators; else requantize (round, optional ReLU, saturate).
  // `bias`: per filter, added before the shift (empty = none).
  void multiply(const MatmulOperands& m, bool float32, int shift, bool relu,
                const std::vector<std::int32_t>& bias = {}) const;
};

}  // namespace npusim
