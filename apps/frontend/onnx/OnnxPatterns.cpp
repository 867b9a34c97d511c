// Op chains exporters write for an op that the opsets npusim reads lack (GELU) or that
// older opsets spell out (LayerNormalization before opset 17); each is recognized from
// its first node and imported as the one layer it computes.
#include <algorithm>
#include <cmath>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxGraphImporter.h"

namespace npusim {

std::vector<const onnx::NodeProto*> OnnxGraphImporter::readers(const std::string& value) const {
  std::vector<const Node*> out;
  for (const auto& n : model_.graph().node())
    if (std::find(n.input().begin(), n.input().end(), value) != n.input().end()) out.push_back(&n);
  return out;
}

bool OnnxGraphImporter::has_constant(const Node& n, double want) const {
  for (int i = 0; i < n.input_size(); ++i)
    if (model_.constant(n.input(i)) && constant_values(n, i) == std::vector<double>{want}) return true;
  return false;
}

// x / sqrt(2) -> Erf -> + 1 -> * x -> * 0.5, as PyTorch exports F.gelu.
const onnx::NodeProto* OnnxGraphImporter::gelu_pattern(const Node& div) const {
  const auto c = model_.constant(div.input(1)) ? constant_values(div, 1) : std::vector<double>{};
  if (c.size() != 1 || std::fabs(c[0] - std::sqrt(2.0)) > 1e-3) return nullptr;
  const Node* erf = sole_consumer(div.output(0));
  const Node* plus = erf && erf->op_type() == "Erf" ? sole_consumer(erf->output(0)) : nullptr;
  const Node* times = plus && plus->op_type() == "Add" && has_constant(*plus, 1.0) ? sole_consumer(plus->output(0))
                                                                                   : nullptr;
  const Node* half = times && times->op_type() == "Mul" ? sole_consumer(times->output(0)) : nullptr;
  if (!half || half->op_type() != "Mul" || !has_constant(*half, 0.5)) return nullptr;
  if (times->input(0) != div.input(0) && times->input(1) != div.input(0)) return nullptr;
  return half;
}

// mean = ReduceMean(x); d = x - mean; y = d / Sqrt(ReduceMean(d^2) + eps) [* scale] [+ shift],
// every mean over the last axis: LayerNormalization as opsets before 17 spell it.
std::optional<OnnxGraphImporter::LayerNormChain> OnnxGraphImporter::layer_norm_pattern(const Node& mean) const {
  auto last_axis_mean = [&](const Node* n) {
    if (!n || n->op_type() != "ReduceMean" || onnx_int(*n, "keepdims", 1) != 1) return false;
    const auto axes = onnx_ints(*n, "axes", {});
    const auto rank = std::int64_t(model_.shapes.count(n->input(0)) ? model_.shapes.at(n->input(0)).size() : 0);
    return axes.size() == 1 && (axes[0] == -1 || axes[0] == rank - 1);
  };
  auto only = [&](const std::string& value, const char* op) -> const Node* {
    const auto r = readers(value);
    return r.size() == 1 && r[0]->op_type() == op ? r[0] : nullptr;
  };
  if (!last_axis_mean(&mean)) return std::nullopt;
  const Node* sub = only(mean.output(0), "Sub");
  if (!sub || sub->input(0) != mean.input(0) || sub->input(1) != mean.output(0)) return std::nullopt;
  const auto uses = readers(sub->output(0));
  if (uses.size() != 2) return std::nullopt;
  const Node* pow = uses[0]->op_type() == "Pow" ? uses[0] : uses[1];
  const Node* div = uses[0]->op_type() == "Div" ? uses[0] : uses[1];
  if (pow->op_type() != "Pow" || div->op_type() != "Div" || pow->input(0) != sub->output(0) ||
      div->input(0) != sub->output(0) || !has_constant(*pow, 2.0))
    return std::nullopt;
  const Node* variance = only(pow->output(0), "ReduceMean");
  const Node* plus_eps = variance && last_axis_mean(variance) ? only(variance->output(0), "Add") : nullptr;
  const Node* root = plus_eps ? only(plus_eps->output(0), "Sqrt") : nullptr;
  if (!root || readers(root->output(0)) != std::vector<const Node*>{div} || div->input(1) != root->output(0))
    return std::nullopt;
  LayerNormChain chain{{sub, pow, variance, plus_eps, root, div}, div, {}, {}};
  auto per_channel = [&](const Node* n, std::vector<double>& into) {
    for (int i = 0; i < 2; ++i)
      if (model_.constant(n->input(i)) && n->input(1 - i) == chain.last->output(0)) {
        into = constant_values(*n, i);
        return true;
      }
    return false;
  };
  if (const Node* scale = only(div->output(0), "Mul"); scale && per_channel(scale, chain.scale)) {
    chain.nodes.push_back(scale), chain.last = scale;
    if (const Node* shift = only(scale->output(0), "Add"); shift && per_channel(shift, chain.shift))
      chain.nodes.push_back(shift), chain.last = shift;
  }
  return chain;
}

}  // namespace npusim
