#pragma once
#include <any>
#include <functional>
#include <string>
#include <vector>

#include "sim/config/ConfigKeys.h"

namespace npusim {

class EnergyTable;

// Where a cross-field check is looking: the file and the pointer of the section
// in this core kind ("/core/matrix" or "/core_kinds/<name>/matrix").
struct SectionPlace {
  std::string file;
  std::string pointer;
  // InputError at `pointer`/`key` (key may hold a list index: "pci_candidates/2").
  [[noreturn]] void fail(const std::string& key, const std::string& reason) const;
};

// One block's section of a core's config. A block registers it from its own
// folder (see NPUSIM_REGISTER_ENGINE in models/engine/EngineRegistry.h), so the
// schema, docs/config.md and the loader learn its keys without a central list.
struct CoreSection {
  std::string name;        // "matrix": keys live under /core/matrix
  std::string engine;      // the engine slot it configures ("load" for "load_dma")
  std::any defaults;       // a value of the section's struct, filled in by its keys
  std::vector<ConfigKey> keys;
  // Rules across this section's keys; called after each key passed its own limits.
  std::function<void(const CoreConfig&, const SectionPlace&)> check;
  // Keys the section works out from the rest of the core once the energy table is known
  // (the sparse cluster sized to the matrix unit's area); `check` runs again after it.
  std::function<void(CoreConfig&, const EnergyTable&, const SectionPlace&)> resolve;
};

// Returns true, so a registration can initialise a namespace-scope constant.
bool register_core_section(CoreSection section);

// Every registered section, in name order (registration order varies with link order).
const std::vector<CoreSection>& core_sections();

// Engine slot names a core may list in /core/engines: one per registered section that has an engine.
std::vector<std::string> known_engine_names();

}  // namespace npusim
