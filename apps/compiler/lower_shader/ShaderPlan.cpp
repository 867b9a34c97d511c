// Placing and planning conv and fc layers on a shader core (seed003).
#include "apps/compiler/lower_shader/ShaderLowering.h"

#include "apps/compiler/tiling/LayerTiler.h"
#include "models/shader_core/ShaderCoreConfig.h"
#include "sim/common/InputError.h"

namespace npusim {

// Conv and fc, unless the layer names another engine: fetch_ml brings the data, the
// datapath requantizes.
std::vector<std::string> ShaderLowering::takes(const Layer& l) const {
  const bool conv_or_fc = (l.kind == LayerKind::Conv && l.groups == 1) || l.kind == LayerKind::Fc;  // not grouped
  if (!conv_or_fc || !(l.engine.empty() || l.engine == name())) return {};
  return {"fetch_ml", name()};
}

// The whole layer blocked into register-group tiles, fetched straight from DRAM.
void ShaderLowering::plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const {
  const CoreConfig& core = t.kind(hw);
  // The whole image: a band would clip rows no window reads, which changes the image pitch.
  ConvShape shape = band_conv_shape(l, t, {0, l.in.h, l.pad[0], l.pad[1]}, l.out.c);
  shape.n = w.batch;
  try {
    t.engine_plans[name()] = plan_shader_conv(core.block<ShaderCoreConfig>(ShaderCoreConfig::kSection),
                                              core.register_file.capacity_bytes, shape, true);
  } catch (const InputError& e) {
    throw InputError(w.file, layer_place(l), "the shader core cannot map it: " + e.reason());
  }
}

}  // namespace npusim
