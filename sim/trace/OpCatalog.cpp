#include "sim/trace/OpCatalog.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace npusim {

namespace {
std::map<std::string, OpSpec>& catalog() {
  static std::map<std::string, OpSpec> ops;  // filled by the engines' registrations
  return ops;
}
}  // namespace

void register_op(OpSpec spec) { catalog()[spec.name] = std::move(spec); }

const OpSpec* find_op(const std::string& name) {
  auto it = catalog().find(name);
  return it == catalog().end() ? nullptr : &it->second;
}

std::vector<std::string> op_names() {
  std::vector<std::string> names;
  for (const auto& [name, spec] : catalog()) names.push_back(name);
  return names;
}

std::vector<std::string> op_engine_names() {
  std::vector<std::string> engines;
  for (const auto& [name, spec] : catalog())
    if (std::find(engines.begin(), engines.end(), spec.engine) == engines.end()) engines.push_back(spec.engine);
  return engines;
}

std::optional<OpProblem> operand_overlap(const Instruction& ins) {
  std::vector<std::pair<std::string, const TensorOperand*>> all;
  for (std::size_t i = 0; i < ins.inputs.size(); ++i) all.push_back({fmt::format("inputs[{}]", i), &ins.inputs[i]});
  for (std::size_t i = 0; i < ins.outputs.size(); ++i)
    all.push_back({fmt::format("outputs[{}]", i), &ins.outputs[i]});
  for (std::size_t b = 1; b < all.size(); ++b)
    for (std::size_t a = 0; a < b; ++a) {
      const TensorOperand &x = *all[a].second, &y = *all[b].second;
      const bool same = x.offset == y.offset && x.end() == y.end() && x.pitch == y.pitch;
      if (x.space != y.space || same || x.end() <= y.offset || y.end() <= x.offset) continue;
      return OpProblem{all[b].first,
                       fmt::format("{} bytes [{}, {}) partly overlap {} bytes [{}, {}) of {}; operands of one "
                                   "instruction must be disjoint or exactly the same region",
                                   address_space_name(y.space), y.offset, y.end(), all[a].first, x.offset, x.end(),
                                   ins.op)};
    }
  return std::nullopt;
}

}  // namespace npusim
