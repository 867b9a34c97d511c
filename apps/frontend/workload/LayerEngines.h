#pragma once
#include "sim/common/UniqueName.h"
#include <string>

namespace npusim {

// The engines a conv or fc layer may name in its "engine" field to force one. The
// front end knows no engine: each lowering that can be forced registers its name
// and what it is (the words of the reader's message) from its own folder,
// apps/compiler/lower_<name>/. Runs from static initialisers, so it looks nothing up.
bool register_layer_engine(const char* name, const char* what);

// Fails (InputError, field 'engine') unless `engine` is empty or a registered name.
struct Place;
void check_layer_engine(const std::string& engine, const Place& place);

}  // namespace npusim

// Lets a workload's conv or fc layers force this engine ("engine": name), from the
// lowering's own .cpp.
#define NPUSIM_REGISTER_LAYER_ENGINE(name, what)                                 \
  namespace {                                                                    \
  const bool NPUSIM_UNIQUE_NAME(kLayerEngineRegistered) = ::npusim::register_layer_engine(name, what); \
  }
