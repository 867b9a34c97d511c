#include "sim/tensor/KernelDilation.h"

#include <cstring>

#include "sim/tensor/WindowGeometry.h"

namespace npusim {

namespace {

std::uint64_t outer_count(const std::vector<std::uint64_t>& shape) {
  std::uint64_t n = 1;
  for (std::size_t i = 0; i + 3 < shape.size(); ++i) n *= shape[i];
  return n;
}

// Calls copy(dense byte offset, dilated byte offset, bytes) for every tap's channel run.
template <typename Copy>
void for_each_tap(const std::vector<std::uint64_t>& dense, std::size_t element_bytes, KernelDilation d, Copy copy) {
  const std::size_t r = dense.size();
  const std::uint64_t kh = dense[r - 3], kw = dense[r - 2], run = dense[r - 1] * element_bytes;
  const std::uint64_t dkh = dilated_extent(kh, d[0]), dkw = dilated_extent(kw, d[1]);
  for (std::uint64_t o = 0; o < outer_count(dense); ++o)
    for (std::uint64_t i = 0; i < kh; ++i)
      for (std::uint64_t j = 0; j < kw; ++j)
        copy(((o * kh + i) * kw + j) * run, ((o * dkh + i * d[0]) * dkw + j * d[1]) * run, run);
}

std::uint64_t bytes_of(const std::vector<std::uint64_t>& shape, std::size_t element_bytes) {
  std::uint64_t n = element_bytes;
  for (auto v : shape) n *= v;
  return n;
}

}  // namespace

std::vector<std::uint64_t> dilated_kernel_shape(const std::vector<std::uint64_t>& dense, KernelDilation d) {
  std::vector<std::uint64_t> s = dense;
  const std::size_t r = s.size();
  if (r < 3) return s;  // not a kernel: callers reject it
  s[r - 3] = dilated_extent(s[r - 3], d[0]);
  s[r - 2] = dilated_extent(s[r - 2], d[1]);
  return s;
}

std::vector<std::uint8_t> spread_kernel_taps(const std::vector<std::uint8_t>& dense,
                                             const std::vector<std::uint64_t>& dense_shape, std::size_t element_bytes,
                                             KernelDilation d) {
  std::vector<std::uint8_t> out(bytes_of(dilated_kernel_shape(dense_shape, d), element_bytes), 0);
  for_each_tap(dense_shape, element_bytes, d, [&](std::uint64_t from, std::uint64_t to, std::uint64_t n) {
    std::memcpy(out.data() + to, dense.data() + from, n);
  });
  return out;
}

std::vector<std::uint8_t> gather_kernel_taps(const std::vector<std::uint8_t>& dilated,
                                             const std::vector<std::uint64_t>& dense_shape, std::size_t element_bytes,
                                             KernelDilation d) {
  std::vector<std::uint8_t> out(bytes_of(dense_shape, element_bytes));
  for_each_tap(dense_shape, element_bytes, d, [&](std::uint64_t to, std::uint64_t from, std::uint64_t n) {
    std::memcpy(out.data() + to, dilated.data() + from, n);
  });
  return out;
}

}  // namespace npusim
