#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "models/vector_unit/VectorKernels.h"
#include "sim/tensor/Half.h"

using namespace npusim;

namespace {
template <typename T>
std::vector<std::uint8_t> as_bytes(const std::vector<T>& v) {
  std::vector<std::uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <typename T>
std::vector<T> from_bytes(const std::vector<std::uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}
}  // namespace

TEST_CASE("relu zeroes negatives for every integer type and float32", "[vector]") {
  std::mt19937 rng(11);
  std::vector<std::int8_t> a8(257);
  for (auto& x : a8) x = static_cast<std::int8_t>(rng());
  std::vector<std::uint8_t> out(a8.size());
  vector_relu(DType::Int8, as_bytes(a8).data(), out.data(), a8.size());
  auto r8 = from_bytes<std::int8_t>(out);
  for (std::size_t i = 0; i < a8.size(); ++i) REQUIRE(r8[i] == (a8[i] < 0 ? 0 : a8[i]));

  std::vector<float> af(300);
  for (auto& x : af) x = std::uniform_real_distribution<float>(-5, 5)(rng);
  std::vector<std::uint8_t> outf(af.size() * 4);
  vector_relu(DType::Float32, as_bytes(af).data(), outf.data(), af.size());
  auto rf = from_bytes<float>(outf);
  for (std::size_t i = 0; i < af.size(); ++i) REQUIRE(rf[i] == std::max(0.0f, af[i]));
}

TEST_CASE("integer add saturates at the limits of the type", "[vector]") {
  std::vector<std::int8_t> a = {100, -100, 5, 127, -128};
  std::vector<std::int8_t> b = {100, -100, -7, 1, -1};
  std::vector<std::uint8_t> out(a.size());
  vector_add(DType::Int8, as_bytes(a).data(), as_bytes(b).data(), out.data(), a.size());
  auto r = from_bytes<std::int8_t>(out);
  for (std::size_t i = 0; i < a.size(); ++i) {
    int wide = std::clamp(int(a[i]) + int(b[i]), -128, 127);
    REQUIRE(r[i] == wide);
  }
  std::vector<std::int32_t> c = {std::numeric_limits<std::int32_t>::max(), -3};
  std::vector<std::int32_t> d = {10, 4};
  std::vector<std::uint8_t> out32(8);
  vector_add(DType::Int32, as_bytes(c).data(), as_bytes(d).data(), out32.data(), 2);
  auto r32 = from_bytes<std::int32_t>(out32);
  CHECK(r32[0] == std::numeric_limits<std::int32_t>::max());
  CHECK(r32[1] == 1);
}

TEST_CASE("float16 survives a round trip through float32 for every finite value", "[vector]") {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu)) continue;  // NaN payloads may change
    REQUIRE(float_to_half(half_to_float(std::uint16_t(h))) == h);
  }
  CHECK(half_to_float(0x3c00) == 1.0f);
  CHECK(half_to_float(0xc000) == -2.0f);
  CHECK(float_to_half(65520.0f) == 0x7c00);          // rounds to infinity
  CHECK(float_to_half(1.0f + 1.0f / 4096) == 0x3c00);  // tie rounds to even
}

TEST_CASE("requant adds each channel's int32 bias before the shift", "[vector][bias]") {
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::int32_t> sums(-200000, 200000), biases(-70000, 70000);
  const std::uint64_t channels = 6, positions = 40;
  std::vector<std::int32_t> acc(channels * positions), bias(channels);
  for (auto& a : acc) a = sums(rng);
  for (auto& b : bias) b = biases(rng);
  bias[0] = std::numeric_limits<std::int32_t>::max();  // the int32 sum plus bias must not wrap
  acc[0] = std::numeric_limits<std::int32_t>::max();
  for (bool relu : {false, true})
    for (std::uint32_t shift : {0u, 1u, 9u, 31u}) {
      std::vector<std::uint8_t> out(acc.size());
      vector_requant(as_bytes(acc).data(), out.data(), acc.size(), shift, relu, bias.data(), channels);
      for (std::size_t i = 0; i < acc.size(); ++i) {
        const double exact = (double(acc[i]) + double(bias[i % channels])) / std::ldexp(1.0, int(shift));
        double want = std::floor(exact + 0.5);  // half up, as without a bias
        if (relu) want = std::max(want, 0.0);
        want = std::clamp(want, -128.0, 127.0);
        INFO("element " << i << ", shift " << shift << ", relu " << relu);
        REQUIRE(double(std::int8_t(out[i])) == want);
      }
    }
}
