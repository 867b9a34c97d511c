#pragma once
#include <cstdint>
#include <string>

#include "sim/common/Cycles.h"
#include "sim/config/CoreSections.h"

namespace npusim {

// Where im2col unrolling happens (seed003 §2.6, ambiguity A2): fetch_to_rf stores the
// unrolled matrix in the register file (reading A); rf_read keeps the compact image
// there and unrolls on the read path to the datapath (reading B).
enum class UnrollSite { FetchToRf, RfRead };
NLOHMANN_JSON_SERIALIZE_ENUM(UnrollSite, {{UnrollSite::FetchToRf, "fetch_to_rf"}, {UnrollSite::RfRead, "rf_read"}})

// The /core/shader section. seed003 gives no lane count, rate or latency: all are
// assumptions (models/shader_core/README.md).
struct ShaderCoreConfig {
  static constexpr const char* kSection = "shader";
  std::uint32_t queue_depth;
  std::uint32_t lanes;                    // SIMD lanes; each computes one output at a time
  std::uint32_t macs_per_lane_per_cycle;
  std::uint32_t register_groups;          // 2 = ping-pong (seed003 ¶[0054]); 1 = fetch and compute alternate
  UnrollSite unroll_site;
  Cycles pipeline_latency;                // first result of an ml_matmul
};

CoreSection shader_core_config_section();
double shader_peak_macs_per_cycle(const ShaderCoreConfig& cfg);

}  // namespace npusim
