// `npusim explain --engine shader`: register-group tiles on a shader core (seed003).
#include "apps/compiler/lower_shader/ShaderLowering.h"

#include "models/shader_core/Explain.h"

namespace npusim {

std::string ShaderLowering::explain_help() const { return "register-group tiles, seed003"; }
std::string ShaderLowering::explain_target() const { return "a shader core"; }
std::string ShaderLowering::explain(const ExplainRequest& q) const { return explain_shader_layer(q.hw, q.layer); }
// What a dense conv is explained on when no lowering before it by rank does so.
bool ShaderLowering::explains_by_default(const HardwareConfig& hw) const { return true; }

}  // namespace npusim
