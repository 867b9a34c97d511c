#include "models/engine/EngineRegistry.h"

#include <stdexcept>

#include "models/dma/DmaEngine.h"
#include "models/matrix_unit/MatrixUnit.h"
#include "models/vector_unit/VectorUnit.h"

namespace npusim {

void EngineRegistry::add(const std::string& name, Factory factory) { factories_[name] = std::move(factory); }

std::unique_ptr<Engine> EngineRegistry::create(const std::string& name, const char* module_name,
                                               EngineSetup setup) const {
  auto it = factories_.find(name);
  if (it == factories_.end()) throw std::logic_error("no engine registered as '" + name + "'");
  setup.kind = name;
  return it->second(module_name, std::move(setup));
}

std::vector<std::string> EngineRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& entry : factories_) out.push_back(entry.first);
  return out;
}

namespace {
EngineRegistry build_registry() {
  EngineRegistry r;
  r.add("load", [](const char* n, EngineSetup s) {
    const DmaConfig& cfg = s.hardware->core.load_dma;
    return std::make_unique<DmaEngine>(n, std::move(s), cfg);
  });
  r.add("store", [](const char* n, EngineSetup s) {
    const DmaConfig& cfg = s.hardware->core.store_dma;
    return std::make_unique<DmaEngine>(n, std::move(s), cfg);
  });
  r.add("vector", [](const char* n, EngineSetup s) {
    const VectorUnitConfig& cfg = s.hardware->core.vector;
    return std::make_unique<VectorUnit>(n, std::move(s), cfg);
  });
  r.add("matrix", [](const char* n, EngineSetup s) {
    const MatrixUnitConfig& cfg = s.hardware->core.matrix;
    return std::make_unique<MatrixUnit>(n, std::move(s), cfg);
  });
  return r;
}
}  // namespace

const EngineRegistry& engine_registry() {
  static const EngineRegistry registry = build_registry();
  return registry;
}

}  // namespace npusim
