#pragma once
#include <cstdint>
#include <vector>

namespace npusim {

// The positions of the non-zeros of an `elements`-long tensor with exactly
// round(zero_fraction * elements) zeros, chosen by a seeded shuffle; sorted ascending.
// The compiler's sparse data and the sparse cluster's timing-only runs use the same
// positions for the same seed, so both see one data layout.
std::vector<std::uint32_t> sparse_mask(std::uint64_t elements, double zero_fraction, std::uint64_t seed);

// Turns random int8 bytes into a tensor with exactly the zeros `sparse_mask` chose:
// masked positions become 0, kept positions that happen to be 0 become 1.
void apply_sparse_mask(std::vector<std::uint8_t>& int8_bytes, double zero_fraction, std::uint64_t seed);

}  // namespace npusim
