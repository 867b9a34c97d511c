#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace npusim {

// A dilated kernel as the hardware stores it: the taps of a dense [..., kh, kw, c]
// kernel spread `dilation` apart, zeros between them. The compiler hands the
// matrix and vector units such kernels, so a dilated conv runs as a plain one.
using KernelDilation = std::array<std::uint32_t, 2>;  // {dh, dw}; {1, 1} = none

// [..., (kh-1)*dh+1, (kw-1)*dw+1, c] for a dense shape of rank >= 3 (others unchanged).
std::vector<std::uint64_t> dilated_kernel_shape(const std::vector<std::uint64_t>& dense, KernelDilation d);

// Dense bytes -> dilated bytes (zeros between taps), and back (taps only).
std::vector<std::uint8_t> spread_kernel_taps(const std::vector<std::uint8_t>& dense,
                                             const std::vector<std::uint64_t>& dense_shape, std::size_t element_bytes,
                                             KernelDilation d);
std::vector<std::uint8_t> gather_kernel_taps(const std::vector<std::uint8_t>& dilated,
                                             const std::vector<std::uint64_t>& dense_shape, std::size_t element_bytes,
                                             KernelDilation d);

}  // namespace npusim
