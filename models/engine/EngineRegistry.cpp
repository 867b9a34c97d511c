#include "models/engine/EngineRegistry.h"

#include <stdexcept>

namespace npusim {

void EngineRegistry::add(EngineKind kind) {
  if (find(kind.name)) throw std::logic_error("engine '" + kind.name + "' is registered twice");
  kinds_.push_back(std::move(kind));
}

const EngineKind* EngineRegistry::find(const std::string& name) const {
  for (const auto& k : kinds_)
    if (k.name == name) return &k;
  return nullptr;
}

std::unique_ptr<Engine> EngineRegistry::create(const std::string& name, const char* module_name,
                                               EngineSetup setup) const {
  const EngineKind* kind = find(name);
  if (!kind) throw std::logic_error("no engine registered as '" + name + "'");
  setup.kind = name;
  return kind->create(module_name, std::move(setup));
}

double EngineRegistry::peak_macs_per_cycle(const CoreConfig& core) const {
  double peak = 0;
  for (const auto& name : core.engines) {
    const EngineKind* kind = find(name);
    if (kind && kind->peak_macs_per_cycle) peak += kind->peak_macs_per_cycle(core);
  }
  return peak;
}

EngineRegistry& engine_registry() {
  static EngineRegistry registry;
  return registry;
}

bool register_engine(EngineKind kind) {
  register_core_section(kind.config);
  for (OpSpec op : kind.ops) {
    op.engine = kind.name;
    register_op(std::move(op));
  }
  engine_registry().add(std::move(kind));
  return true;
}

}  // namespace npusim
