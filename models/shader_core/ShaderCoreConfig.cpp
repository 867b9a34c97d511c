#include "models/shader_core/ShaderCoreConfig.h"

namespace npusim {

namespace {

std::vector<ConfigKey> shader_keys() {
  using S = ShaderCoreConfig;
  EngineSectionKeys<S> sh("shader core (seed003 204, assumption): ", 4, "ml_matmul instructions waiting to issue");
  sh.add(integer(sh("lanes", &S::lanes), 64, within(1, 4096), "count", sh.what + "SIMD lanes of the datapath"));
  sh.add(integer(sh("macs_per_lane_per_cycle", &S::macs_per_lane_per_cycle), 4, within(1, 256), "MACs",
                 sh.what + "multiply-accumulates one lane does per cycle"));
  sh.add(integer(sh("register_groups", &S::register_groups), 2, within(1, 2), "count",
                 sh.what + "register groups the compiler splits the register file into: 2 = ping-pong "
                           "(compute on one while fetch_ml fills the other), 1 = no overlap"));
  sh.add(choice(sh("unroll_site", &S::unroll_site), "rf_read", {"fetch_to_rf", "rf_read"},
                "where im2col unrolling happens (seed003 §2.6): fetch_to_rf stores the unrolled matrix in the "
                "register file, rf_read stores the compact image and unrolls on the read path"));
  sh.add(latency(sh("pipeline_latency", &S::pipeline_latency), 8,
                 sh.what + "datapath pipeline depth, paid once per ml_matmul", kMaxBlockLatency));
  return sh.keys;
}

// The shader computes on register-file tiles that only fetch_ml fills.
void check_shader(const CoreConfig& core, const SectionPlace& place) {
  if (!core.has_engine("shader")) return;
  const std::string engines = place.pointer.substr(0, place.pointer.rfind('/'));
  if (!core.has_engine("fetch_ml"))
    SectionPlace{place.file, engines}.fail("engines", "the shader engine needs the fetch_ml engine in the same core "
                                                      "kind: only fetch_ml fills its register file");
}

}  // namespace

CoreSection shader_core_config_section() {
  return {ShaderCoreConfig::kSection, "shader", ShaderCoreConfig{}, shader_keys(), check_shader};
}

double shader_peak_macs_per_cycle(const ShaderCoreConfig& cfg) {
  return double(cfg.lanes) * cfg.macs_per_lane_per_cycle;
}

}  // namespace npusim
