#pragma once
#include <cstdint>
#include <vector>

#include "sim/tensor/DType.h"

namespace npusim {

// Reproducible pseudo-random tensor contents for a seed (docs/trace-format.md):
// element i takes the i-th output of a SplitMix64 stream started at `seed`.
// Integer types keep the low bits (the whole range of the type); float types
// map the top 24 bits to a value in [-1, 1).
// One step of the SplitMix64 stream: advances `state`, returns the next output.
std::uint64_t splitmix64(std::uint64_t& state);

std::vector<std::uint8_t> random_tensor_bytes(DType type, std::uint64_t elements, std::uint64_t seed);

}  // namespace npusim
