// The fetch-path cache block on its own (models/fetch_ml/FetchCache): sets, ways, least
// recently used replacement, the bytes a hit returns, and invalidation.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "models/fetch_ml/FetchCache.h"

using npusim::FetchCache;

TEST_CASE("fetch cache: two sets of two 4-byte ways replace the least recently used line of a set",
          "[shader][fetch_cache]") {
  FetchCache cache("fetch_cache_lru", {16, 4, 2}, true);
  REQUIRE(cache.fitted());
  const std::vector<std::uint8_t> a{1, 2, 3, 4}, b{5, 6, 7, 8}, c{9, 10, 11, 12};
  cache.fill(0, a.data());  // lines 0, 2 and 4 all map to set 0
  cache.fill(2, b.data());
  CHECK(cache.lookup(0));   // line 0 becomes the most recent; line 2 the least
  cache.fill(4, c.data());  // evicts line 2
  CHECK(cache.holds(0));
  CHECK_FALSE(cache.holds(2));
  CHECK(cache.holds(4));
  CHECK(std::memcmp(cache.data(0), a.data(), 4) == 0);
  CHECK(std::memcmp(cache.data(4), c.data(), 4) == 0);
  cache.fill(1, b.data());  // set 1 is untouched by set 0's traffic
  CHECK(cache.holds(1));
  CHECK(cache.holds(0));
}

TEST_CASE("fetch cache: a write's range drops exactly the lines it touches, a new layer drops all",
          "[shader][fetch_cache]") {
  FetchCache cache("fetch_cache_ranges", {64, 4, 4}, false);
  for (std::uint64_t line = 0; line < 8; ++line) cache.fill(line, nullptr);
  cache.invalidate(6, 5);  // bytes 6..10: lines 1 and 2
  CHECK(cache.holds(0));
  CHECK_FALSE(cache.holds(1));
  CHECK_FALSE(cache.holds(2));
  CHECK(cache.holds(3));
  cache.invalidate(0, 1 << 20);  // a range longer than the cache: every held line in it
  CHECK_FALSE(cache.holds(0));
  CHECK_FALSE(cache.holds(7));
  cache.fill(5, nullptr);
  cache.invalidate_all();
  CHECK_FALSE(cache.holds(5));
  CHECK_FALSE(FetchCache("fetch_cache_none", {0, 64, 8}, false).fitted());
}
