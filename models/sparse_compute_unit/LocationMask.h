#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace npusim {

// A set of VAR locations (bit i = location i, row-major over the (2kh-1) x (2kw-1) window),
// the timing path's stand-in for a list of products: a weight's products in one window are
// its data positions shifted by its §2.5 offset, in the order they are issued (lowest
// location first). Two forms share one interface: a machine word for VARs of up to 64
// locations (kernels up to 4x4) and WideMask for up to 256 (kernels up to 8x8).
// Without a popcount instruction in the baseline x86-64 target the builtin is a library call;
// this is the same bit count, inlined.
inline std::uint32_t mask_count(std::uint64_t m) {
  m -= (m >> 1) & 0x5555555555555555ull;
  m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
  m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return std::uint32_t((m * 0x0101010101010101ull) >> 56);
}
inline bool mask_any(std::uint64_t m) { return m != 0; }
inline void mask_set(std::uint64_t& m, std::uint32_t location) { m |= std::uint64_t(1) << location; }
inline std::uint64_t mask_shifted(std::uint64_t m, std::uint32_t by) { return m << by; }

// The first `t` of the `n` locations of `m` in issue order (t <= n = mask_count(m)): drops
// the last n - t or keeps the first t, whichever is fewer steps.
inline std::uint64_t mask_first(std::uint64_t m, std::uint32_t t, std::uint32_t n) {
  if (2 * t > n) {
    for (std::uint32_t i = t; i < n; ++i) m &= ~(std::uint64_t(1) << (63 - __builtin_clzll(m)));
    return m;
  }
  std::uint64_t rest = m;
  for (std::uint32_t i = 0; i < t; ++i) rest &= rest - 1;
  return m ^ rest;
}

inline bool mask_has(std::uint64_t m, std::uint32_t location) { return (m >> location) & 1; }
inline std::uint32_t mask_lowest(std::uint64_t m) { return std::uint32_t(__builtin_ctzll(m)); }
inline std::uint32_t mask_highest(std::uint64_t m) { return 63 - std::uint32_t(__builtin_clzll(m)); }

inline void append_words(std::vector<std::uint64_t>& words, std::uint64_t m) { words.push_back(m); }

template <class Visit>
void for_each_location(std::uint64_t m, std::uint32_t base, Visit&& visit) {
  for (; m != 0; m &= m - 1) visit(base + std::uint32_t(__builtin_ctzll(m)));
}

struct WideMask {
  static constexpr std::uint32_t kWords = 4;
  std::array<std::uint64_t, kWords> w{};

  WideMask& operator|=(const WideMask& o) {
    for (std::uint32_t i = 0; i < kWords; ++i) w[i] |= o.w[i];
    return *this;
  }
  WideMask& operator^=(const WideMask& o) {
    for (std::uint32_t i = 0; i < kWords; ++i) w[i] ^= o.w[i];
    return *this;
  }
  friend WideMask operator&(WideMask a, const WideMask& b) {
    for (std::uint32_t i = 0; i < kWords; ++i) a.w[i] &= b.w[i];
    return a;
  }
};

inline std::uint32_t mask_count(const WideMask& m) {
  std::uint32_t n = 0;
  for (std::uint64_t x : m.w) n += mask_count(x);
  return n;
}
inline bool mask_any(const WideMask& m) { return (m.w[0] | m.w[1] | m.w[2] | m.w[3]) != 0; }
inline void mask_set(WideMask& m, std::uint32_t location) { mask_set(m.w[location / 64], location % 64); }

inline WideMask mask_shifted(const WideMask& m, std::uint32_t by) {
  WideMask s;
  const std::uint32_t words = by / 64, bits = by % 64;
  for (std::uint32_t i = WideMask::kWords; i-- > words;) {
    s.w[i] = m.w[i - words] << bits;
    if (bits != 0 && i > words) s.w[i] |= m.w[i - words - 1] >> (64 - bits);
  }
  return s;
}

inline WideMask mask_first(const WideMask& m, std::uint32_t t, std::uint32_t) {
  WideMask f;
  for (std::uint32_t i = 0; i < WideMask::kWords && t > 0; ++i) {
    const std::uint32_t here = mask_count(m.w[i]);
    f.w[i] = here <= t ? m.w[i] : mask_first(m.w[i], t, here);
    t -= here <= t ? here : t;
  }
  return f;
}

inline bool mask_has(const WideMask& m, std::uint32_t location) { return mask_has(m.w[location / 64], location % 64); }
inline std::uint32_t mask_lowest(const WideMask& m) {
  std::uint32_t i = 0;
  while (m.w[i] == 0) ++i;
  return 64 * i + mask_lowest(m.w[i]);
}
inline std::uint32_t mask_highest(const WideMask& m) {
  std::uint32_t i = WideMask::kWords - 1;
  while (m.w[i] == 0) --i;
  return 64 * i + mask_highest(m.w[i]);
}

inline void append_words(std::vector<std::uint64_t>& words, const WideMask& m) {
  words.insert(words.end(), m.w.begin(), m.w.end());
}

template <class Visit>
void for_each_location(const WideMask& m, std::uint32_t base, Visit&& visit) {
  for (std::uint32_t i = 0; i < WideMask::kWords; ++i) for_each_location(m.w[i], base + 64 * i, visit);
}

}  // namespace npusim
