#include "sim/trace/OpCatalog.h"

#include <algorithm>
#include <map>

namespace npusim {

namespace {
std::map<std::string, OpSpec>& catalog() {
  static std::map<std::string, OpSpec> ops = [] {
    std::map<std::string, OpSpec> m;
    for (auto& spec : builtin_ops()) m[spec.name] = std::move(spec);
    return m;
  }();
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

}  // namespace npusim
