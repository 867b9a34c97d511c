#include "apps/frontend/workload/LayerEngines.h"

#include <map>

#include <fmt/format.h>

#include "apps/frontend/workload/LayerChecks.h"

namespace npusim {

namespace {

// By name, so the message lists them in one order whatever the link order.
std::map<std::string, std::string>& layer_engines() {
  static std::map<std::string, std::string> engines;
  return engines;
}

// "a" (x), "b" (y) or "c" (z)
std::string engine_choices() {
  std::string text;
  std::size_t i = 0;
  const auto& engines = layer_engines();
  for (const auto& [name, what] : engines) {
    if (i++ > 0) text += i == engines.size() ? " or " : ", ";
    text += fmt::format("\"{}\" ({})", name, what);
  }
  return text;
}

}  // namespace

bool register_layer_engine(const char* name, const char* what) {
  return layer_engines().emplace(name, what).second;
}

void check_layer_engine(const std::string& engine, const Place& place) {
  if (engine.empty() || layer_engines().count(engine)) return;
  place.fail("engine", fmt::format("must be {}, got '{}'", engine_choices(), engine));
}

}  // namespace npusim
