#include "sim/tensor/SparseMask.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/tensor/RandomTensor.h"

namespace npusim {

std::vector<std::uint32_t> sparse_mask(std::uint64_t elements, double zero_fraction, std::uint64_t seed) {
  const auto zeros = std::uint64_t(std::llround(zero_fraction * double(elements)));
  const std::uint64_t keep = elements - std::min(zeros, elements);
  std::vector<std::uint32_t> all(elements);
  std::iota(all.begin(), all.end(), 0u);
  std::uint64_t state = seed;
  // Partial Fisher-Yates: the first `keep` slots end up a uniform random subset.
  for (std::uint64_t i = 0; i < keep; ++i) {
    const std::uint64_t j = i + splitmix64(state) % (elements - i);
    std::swap(all[i], all[j]);
  }
  // The kept indices in increasing order: marked in a bit set and read back, which is
  // linear where sorting them was not.
  std::vector<std::uint64_t> kept((elements + 63) / 64, 0);
  for (std::uint64_t i = 0; i < keep; ++i) kept[all[i] / 64] |= std::uint64_t(1) << (all[i] % 64);
  all.clear();
  for (std::uint64_t word = 0; word < kept.size(); ++word)
    for (std::uint64_t bits = kept[word]; bits != 0; bits &= bits - 1)
      all.push_back(std::uint32_t(word * 64 + std::uint64_t(__builtin_ctzll(bits))));
  return all;
}

void apply_sparse_mask(std::vector<std::uint8_t>& int8_bytes, double zero_fraction, std::uint64_t seed) {
  const std::vector<std::uint32_t> keep = sparse_mask(int8_bytes.size(), zero_fraction, seed);
  std::vector<std::uint8_t> out(int8_bytes.size(), 0);
  for (std::uint32_t i : keep) out[i] = int8_bytes[i] != 0 ? int8_bytes[i] : 1;
  int8_bytes.swap(out);
}

}  // namespace npusim
