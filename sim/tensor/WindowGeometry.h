#pragma once
#include <cstdint>

#include <nlohmann/json.hpp>

namespace npusim {

// The one place that knows sliding-window arithmetic: the trace ops' shape
// checks, the workload reader, the compiler's tiler, the vector unit and the
// matrix unit all ask here.

// Outputs along one axis: floor((in + pad_low + pad_high - kernel) / stride) + 1,
// or 0 when the kernel is larger than the padded input.
std::uint64_t window_outputs(std::uint64_t in, std::uint64_t pad_low, std::uint64_t pad_high, std::uint64_t kernel,
                             std::uint64_t stride);

// A kernel's extent once `dilation` - 1 zero taps sit between its taps.
std::uint64_t dilated_extent(std::uint64_t kernel, std::uint64_t dilation);

// Total "same" padding along one axis (TensorFlow's rule): enough for ceil(in / stride) outputs.
std::uint64_t same_padding(std::uint64_t in, std::uint64_t kernel, std::uint64_t stride);

// A 2-D window over an NHWC map [n hi wi ...]: kernel (dilation already applied),
// strides and zero padding on each side; output [n ho wo ...].
struct WindowGeometry {
  std::uint32_t n = 1, hi = 0, wi = 0;
  std::uint32_t kh = 1, kw = 1;
  std::uint32_t sh = 1, sw = 1;
  std::uint32_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;

  std::uint32_t padded_hi() const { return pad_top + hi + pad_bottom; }
  std::uint32_t padded_wi() const { return pad_left + wi + pad_right; }
  std::uint32_t ho() const { return std::uint32_t(window_outputs(hi, pad_top, pad_bottom, kh, sh)); }
  std::uint32_t wo() const { return std::uint32_t(window_outputs(wi, pad_left, pad_right, kw, sw)); }
  bool kernel_fits() const { return ho() > 0 && wo() > 0; }

  // Takes "stride": [sh, sw] and "padding": [top, bottom, left, right] from an
  // instruction's params (already checked by the op), leaving absent ones as they are.
  void read_params(const nlohmann::json& params);
};

}  // namespace npusim
