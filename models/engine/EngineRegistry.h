#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/engine/Engine.h"

namespace npusim {

// Engine implementations registered by name (as ramulator2 registers its
// components), so a core is assembled from the `core.engines` list of the config.
class EngineRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Engine>(const char* module_name, EngineSetup setup)>;

  void add(const std::string& name, Factory factory);
  std::unique_ptr<Engine> create(const std::string& name, const char* module_name, EngineSetup setup) const;
  bool contains(const std::string& name) const { return factories_.count(name) != 0; }
  std::vector<std::string> names() const;

 private:
  std::map<std::string, Factory> factories_;
};

// The registry with every engine this build knows.
const EngineRegistry& engine_registry();

}  // namespace npusim
