#pragma once
#include <cstdint>

#include "sim/common/Cycles.h"
#include "sim/config/CoreSections.h"

namespace npusim {

// The "vector" section of a core (keys: VectorUnitConfig.cpp).
struct VectorUnitConfig {
  static constexpr const char* kSection = "vector";
  std::uint32_t queue_depth;
  double bytes_per_cycle;
  Cycles pipeline_latency;
  // Lane ops per element of the transformer ops (assumptions: README.md).
  double softmax_lane_ops;
  double layernorm_lane_ops;
  double gelu_lane_ops;
  // Lane ops per element of the activations and of mul (assumptions: README.md).
  double sigmoid_lane_ops;
  double hardsigmoid_lane_ops;
  double hardswish_lane_ops;
  double silu_lane_ops;
  double tanh_lane_ops;
  double mul_lane_ops;
  double bilinear_lane_ops;  // per output element of a bilinear upsample: four taps
};

CoreSection vector_unit_config_section();

}  // namespace npusim
