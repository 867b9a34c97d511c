#pragma once
// Shared by the sparse compute unit tests: random sparse int8 data, random cuts of an axis
// into unit regions, and MIN port counts.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace npusim {

inline std::vector<std::int8_t> sparse_values(std::mt19937& rng, std::size_t n, double zeros) {
  std::vector<std::int8_t> v(n);
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> value(-128, 126);
  for (auto& x : v) {
    const int r = value(rng);
    x = u(rng) < zeros ? 0 : std::int8_t(r >= 0 ? r + 1 : r);
  }
  return v;
}

inline std::vector<std::uint32_t> cuts(std::mt19937& rng, std::uint32_t n, std::uint32_t parts) {
  std::vector<std::uint32_t> c{0, n};
  std::uniform_int_distribution<std::uint32_t> at(1, n > 1 ? n - 1 : 1);
  for (std::uint32_t i = 1; i < parts && n > 1; ++i) c.push_back(at(rng));
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end()), c.end());
  return c;
}

inline std::uint32_t pow2_at_least(std::uint32_t n) {
  std::uint32_t p = 2;
  while (p < n) p *= 2;
  return p;
}

}  // namespace npusim
