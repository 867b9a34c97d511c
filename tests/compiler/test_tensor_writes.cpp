// TensorWrites (issue 28): the writers of a byte range of a tensor, as a plain scan of
// every write would find them, also when writes overlap (channel blocks of the same rows).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "apps/compiler/emit/TensorWrites.h"

using namespace npusim;

TEST_CASE("tensor writes: the writers of a range are exactly those a scan of every write finds",
          "[compiler][dependency_modes]") {
  std::mt19937_64 rng(28);
  for (int trial = 0; trial < 20; ++trial) {
    struct Write {
      std::uint64_t begin, end, id;
    };
    std::vector<Write> all;
    TensorWrites log;
    const std::uint64_t tensor = 4096;
    for (std::uint64_t id = 0; id < 60; ++id) {
      const std::uint64_t begin = rng() % tensor, end = std::min(tensor, begin + 1 + rng() % (trial % 2 ? 64 : 900));
      all.push_back({begin, end, id});
      log.add(begin, end, id);
    }
    log.seal();
    for (int q = 0; q < 200; ++q) {
      const std::uint64_t begin = rng() % tensor, end = begin + 1 + rng() % 300;
      std::vector<std::uint64_t> expected;
      for (const Write& w : all)
        if (w.begin < end && begin < w.end) expected.push_back(w.id);
      INFO("trial " << trial << " query [" << begin << ", " << end << ")");
      CHECK(log.writers(begin, end) == expected);
    }
  }
}
