#pragma once
#include "sim/common/UniqueName.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/engine/Engine.h"
#include "models/engine/EngineEnergy.h"
#include "sim/config/CoreSections.h"
#include "sim/trace/OpCatalog.h"

namespace npusim {

// What a kind of engine tells the rest of npusim about itself. Each engine
// registers one from its own .cpp (as ramulator2 registers its components), so
// a core is assembled from the names in its config and nothing central lists engines.
struct EngineKind {
  using Factory = std::function<std::unique_ptr<Engine>(const char* module_name, EngineSetup setup)>;

  std::string name;     // the slot name configs and trace ops use: "matrix"
  CoreSection config;   // its config section: keys, defaults, cross-field checks
  std::vector<OpSpec> ops;  // the trace ops it runs (their `engine` is this name)
  Factory create;
  // Multiply-accumulates per cycle at full use, for roofline bounds; empty when it does none.
  std::function<double(const CoreConfig&)> peak_macs_per_cycle;
  // Its counters as energy actions and its hardware (docs/energy.md); every engine states one.
  std::function<EngineEnergy(const CoreConfig&)> energy;
};

class EngineRegistry {
 public:
  void add(EngineKind kind);
  std::unique_ptr<Engine> create(const std::string& name, const char* module_name, EngineSetup setup) const;
  const EngineKind* find(const std::string& name) const;
  // Peak MACs per cycle of one core of this kind: the sum over its engines.
  double peak_macs_per_cycle(const CoreConfig& core) const;

 private:
  std::vector<EngineKind> kinds_;
};

// Every engine this build links in.
EngineRegistry& engine_registry();

// The usual kind: engine class E, built from the struct C of its config section.
template <class E, class C>
EngineKind engine_kind_of(std::string name, CoreSection config, std::vector<OpSpec> ops) {
  EngineKind kind;
  kind.name = std::move(name);
  kind.config = std::move(config);
  kind.ops = std::move(ops);
  kind.create = [section = kind.config.name](const char* module_name, EngineSetup setup) {
    const C& cfg = setup.core_config->block<C>(section);
    return std::make_unique<E>(module_name, std::move(setup), cfg);
  };
  return kind;
}

// Registers the engine and its config section; returns true for a namespace-scope constant.
bool register_engine(EngineKind kind);

}  // namespace npusim

// In an engine's .cpp: NPUSIM_REGISTER_ENGINE(matrix_unit_kind());  The library is an
// object library (CMakeLists.txt), so no registration is dropped by the linker.
#define NPUSIM_REGISTER_ENGINE(kind_expression) \
  namespace {                                   \
  const bool NPUSIM_UNIQUE_NAME(kEngineRegistered) = ::npusim::register_engine(kind_expression); \
  }
