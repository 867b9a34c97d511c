#include "sim/tensor/WindowGeometry.h"

#include "sim/common/JsonInteger.h"

namespace npusim {

std::uint64_t window_outputs(std::uint64_t in, std::uint64_t pad_low, std::uint64_t pad_high, std::uint64_t kernel,
                             std::uint64_t stride) {
  const std::uint64_t padded = in + pad_low + pad_high;
  return padded < kernel ? 0 : (padded - kernel) / stride + 1;
}

std::uint64_t dilated_extent(std::uint64_t kernel, std::uint64_t dilation) { return (kernel - 1) * dilation + 1; }

std::uint64_t same_padding(std::uint64_t in, std::uint64_t kernel, std::uint64_t stride) {
  const std::uint64_t outputs = (in + stride - 1) / stride;
  const std::uint64_t covered = (outputs - 1) * stride + kernel;
  return covered > in ? covered - in : 0;
}

void WindowGeometry::read_params(const nlohmann::json& params) {
  sh = param_element(params, "stride", 0, sh);
  sw = param_element(params, "stride", 1, sw);
  pad_top = param_element(params, "padding", 0, pad_top);
  pad_bottom = param_element(params, "padding", 1, pad_bottom);
  pad_left = param_element(params, "padding", 2, pad_left);
  pad_right = param_element(params, "padding", 3, pad_right);
}

}  // namespace npusim
