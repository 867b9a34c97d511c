#pragma once
#include <cstdint>
#include <random>

#include "models/matrix_unit/ConvShape.h"

namespace npusim::reference {

// The rest of a random small conv once the caller has picked its kernel: strides 1-3, a map
// up to `extra` rows and columns larger than the kernel, 1..max_ci input and 1..max_co output
// channels, each pad below the kernel. The sparse tests draw their layers this way.
inline void random_small_layer(std::mt19937& rng, ConvShape& g, std::uint32_t extra, std::uint32_t max_ci,
                               std::uint32_t max_co) {
  g.sh = 1 + rng() % 3;
  g.sw = 1 + rng() % 3;
  g.hi = g.kh + rng() % extra;
  g.wi = g.kw + rng() % extra;
  g.ci = 1 + rng() % max_ci;
  g.co = 1 + rng() % max_co;
  g.pad_top = rng() % g.kh;
  g.pad_bottom = rng() % g.kh;
  g.pad_left = rng() % g.kw;
  g.pad_right = rng() % g.kw;
}

}  // namespace npusim::reference
