#include "sim/config/ConfigLoader.h"

#include "sim/common/InputError.h"
#include "sim/config/ConfigCrossChecks.h"
#include "sim/config/ConfigFile.h"
#include "sim/config/ConfigSchema.h"
#include "sim/config/ConfigValidation.h"

namespace npusim {

using nlohmann::json;

HardwareConfig load_hardware_config(const std::string& path) {
  ConfigSource source = read_config_source(path);
  try {
    return parse_hardware_config(source.doc, path);
  } catch (const InputError& e) {
    // Blame the file in the extends chain that actually wrote the bad value.
    std::string file = origin_of(source, e.location(), path);
    if (file == e.file()) throw;
    throw InputError(file, e.location(), e.reason());
  }
}

HardwareConfig parse_hardware_config(const json& doc, const std::string& file_for_messages) {
  check_known_keys(doc, file_for_messages);
  HardwareConfig cfg;
  for (const auto& key : config_schema()) {
    json::json_pointer pointer(key.path);
    const json& value = doc.contains(pointer) ? doc.at(pointer) : key.default_value;
    check_value(key, value, file_for_messages);
    key.store(cfg, value);
  }
  check_cross_fields(cfg, file_for_messages);
  return cfg;
}

HardwareConfig default_hardware_config() { return parse_hardware_config(json::object(), "<defaults>"); }

json resolved_config_json(const HardwareConfig& cfg) {
  json doc = json::object();
  for (const auto& key : config_schema()) doc[json::json_pointer(key.path)] = key.fetch(cfg);
  return doc;
}

json load_config_json(const std::string& path) { return read_config_source(path).doc; }

}  // namespace npusim
