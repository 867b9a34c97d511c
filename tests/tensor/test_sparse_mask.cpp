// sparse_mask against its definition: a partial Fisher-Yates shuffle keeps the first
// elements - round(zeros * elements) positions, returned sorted. The reference sorts them;
// sparse_mask reads them back from a bit set, which must give the same list.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/tensor/RandomTensor.h"
#include "sim/tensor/SparseMask.h"

using namespace npusim;

namespace {

std::vector<std::uint32_t> reference_mask(std::uint64_t elements, double zeros, std::uint64_t seed) {
  const std::uint64_t keep = elements - std::min<std::uint64_t>(std::llround(zeros * double(elements)), elements);
  std::vector<std::uint32_t> all(elements);
  std::iota(all.begin(), all.end(), 0u);
  std::uint64_t state = seed;
  for (std::uint64_t i = 0; i < keep; ++i) std::swap(all[i], all[i + splitmix64(state) % (elements - i)]);
  all.resize(keep);
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace

TEST_CASE("sparse_mask keeps the shuffle's first positions, in increasing order", "[tensor][sparse]") {
  for (std::uint64_t elements : {1ull, 63ull, 64ull, 65ull, 1000ull, 200704ull})
    for (double zeros : {0.0, 0.3, 0.5, 0.9, 0.95, 1.0})
      for (std::uint64_t seed : {1ull, 7ull}) {
        CAPTURE(elements, zeros, seed);
        REQUIRE(sparse_mask(elements, zeros, seed) == reference_mask(elements, zeros, seed));
      }
}
