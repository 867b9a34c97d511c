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

// Operand number `i` of the inputs then the outputs, as the trace names it.
std::string operand_field(const Instruction& ins, std::size_t i) {
  return i < ins.inputs.size() ? fmt::format("inputs[{}]", i) : fmt::format("outputs[{}]", i - ins.inputs.size());
}

// Every instruction is checked, so the operands' field names are only formatted for a problem.
std::optional<OpProblem> operand_overlap(const Instruction& ins) {
  std::vector<const TensorOperand*> all;
  all.reserve(ins.inputs.size() + ins.outputs.size());
  for (const TensorOperand& t : ins.inputs) all.push_back(&t);
  for (const TensorOperand& t : ins.outputs) all.push_back(&t);
  for (std::size_t b = 1; b < all.size(); ++b)
    for (std::size_t a = 0; a < b; ++a) {
      const TensorOperand &x = *all[a], &y = *all[b];
      const bool same = x.offset == y.offset && x.end() == y.end() && x.pitch == y.pitch;
      if (x.space != y.space || same || x.end() <= y.offset || y.end() <= x.offset) continue;
      return OpProblem{operand_field(ins, b),
                       fmt::format("{} bytes [{}, {}) partly overlap {} bytes [{}, {}) of {}; operands of one "
                                   "instruction must be disjoint or exactly the same region",
                                   address_space_name(y.space), y.offset, y.end(), operand_field(ins, a), x.offset,
                                   x.end(), ins.op)};
    }
  return std::nullopt;
}

}  // namespace npusim
