#include "sim/config/ConfigLoader.h"

#include "sim/common/InputError.h"
#include "sim/config/ConfigCrossChecks.h"
#include "sim/config/CrossCheckPlace.h"
#include "sim/config/ConfigFile.h"
#include "sim/config/ConfigSchema.h"
#include "sim/config/ConfigValidation.h"
#include "sim/config/EnergyTableRef.h"

namespace npusim {

using nlohmann::json;

namespace {

// A core kind before its keys are read: every registered section at its struct's zero value.
CoreConfig empty_core(const std::string& kind) {
  CoreConfig core;
  core.kind = kind;
  for (const CoreSection& section : core_sections()) core.blocks.put(section.name, section.defaults);
  return core;
}

// `base` with `patch` laid over it, object by object (no JSON merge-patch: null is a value here).
json overlaid(json base, const json& patch) {
  for (const auto& item : patch.items()) {
    json& slot = base[item.key()];
    slot = slot.is_object() && item.value().is_object() ? overlaid(slot, item.value()) : item.value();
  }
  return base;
}

void store(const ConfigKey& key, const json& value, const std::string& location, HardwareConfig& cfg,
           CoreConfig& core, const std::string& file) {
  check_value(key, value, location, file);
  key.store(cfg, core, value);
}

// The per-kind keys of one core section. A kind's own value is blamed at its own
// pointer; a value it inherits from /core at /core.
void read_core_keys(const json& own, const json& inherited, const std::string& pointer, HardwareConfig& cfg,
                    CoreConfig& core, const std::string& file) {
  for (const auto& key : config_schema()) {
    if (key.scope != KeyScope::Core) continue;
    json::json_pointer at(key.core_path);
    if (own.contains(at)) store(key, own.at(at), pointer + key.core_path, cfg, core, file);
    else if (inherited.contains(at)) store(key, inherited.at(at), key.path, cfg, core, file);
    else store(key, key.default_value, key.path, cfg, core, file);
  }
}

CoreConfig read_core_kind(const std::string& name, const json& body, const json& core_doc, HardwareConfig& cfg,
                          const std::string& file) {
  const std::string pointer = "/core_kinds/" + pointer_token(name);
  CoreConfig kind = empty_core(name);
  read_core_keys(body, core_doc, pointer, cfg, kind, file);
  for (const auto& key : core_kind_keys()) {
    json::json_pointer at(key.core_path);
    if (body.contains(at)) store(key, body.at(at), pointer + key.core_path, cfg, kind, file);
    else if (!key.default_value.is_null()) key.store(cfg, kind, key.default_value);
    else
      throw InputError(file, pointer + key.core_path,
                       "is missing; a core kind needs " + key.core_path.substr(1) + " (" + key.meaning + ")");
  }
  return kind;
}

// A key of an engine section the kind has no slot for: left out of its resolved form.
bool unused_by(const CoreConfig& kind, const ConfigKey& key) {
  for (const CoreSection& section : core_sections())
    if (key.core_path.rfind("/" + section.name + "/", 0) == 0) return !kind.has_engine(section.engine);
  return false;
}

// parse_hardware_config, with rules between keys naming the key `place` says the user wrote.
HardwareConfig parse_checked(const json& doc, const CrossCheckPlace& place) {
  const std::string& file_for_messages = place.file();
  check_known_keys(doc, file_for_messages);
  HardwareConfig cfg;
  cfg.core = empty_core("core");
  for (const auto& key : config_schema()) {
    if (key.scope != KeyScope::Chip) continue;
    json::json_pointer pointer(key.path);
    store(key, doc.contains(pointer) ? doc.at(pointer) : key.default_value, key.path, cfg, cfg.core,
          file_for_messages);
  }
  const json core_doc = doc.value("core", json::object());
  read_core_keys(core_doc, json::object(), "/core", cfg, cfg.core, file_for_messages);
  const json kinds = doc.value("core_kinds", json::object());
  for (const auto& kind : kinds.items())
    cfg.core_kinds.push_back(read_core_kind(kind.key(), kind.value(), core_doc, cfg, file_for_messages));
  check_cross_fields(cfg, place);
  cfg.kind_of_core = place_core_kinds(cfg);
  cfg.energy = std::make_shared<const EnergyTable>(load_energy_table(
      energy_table_path(cfg.chip.energy_table, file_for_messages), file_for_messages, "/chip/energy_table"));
  resolve_sections(cfg, file_for_messages);
  return cfg;
}

}  // namespace

HardwareConfig load_hardware_config(const std::string& path) {
  ConfigSource source = read_config_source(path);
  try {
    // A rule between keys names the key the user's own file wrote, when it wrote one.
    const CrossCheckPlace place(path, [&](const std::string& pointer) { return origin_of(source, pointer, "") == path; });
    return parse_checked(source.doc, place);
  } catch (const InputError& e) {
    if (e.file() != path) throw;  // a problem inside another file (the energy table)
    // Blame the file in the extends chain that actually wrote the bad value.
    std::string file = origin_of(source, e.location(), path);
    if (file == e.file()) throw;
    throw InputError(file, e.location(), e.reason());
  }
}

HardwareConfig parse_hardware_config(const json& doc, const std::string& file_for_messages) {
  return parse_checked(doc, CrossCheckPlace(file_for_messages));
}


HardwareConfig default_hardware_config() { return parse_hardware_config(json::object(), "<defaults>"); }

json resolved_config_json(const HardwareConfig& cfg) {
  json doc = json::object();
  for (const auto& key : config_schema()) doc[json::json_pointer(key.path)] = key.fetch(cfg, cfg.core);
  for (const auto& kind : cfg.core_kinds) {
    const std::string pointer = "/core_kinds/" + pointer_token(kind.kind);
    for (const auto& key : config_schema())
      if (key.scope == KeyScope::Core && !unused_by(kind, key))
        doc[json::json_pointer(pointer + key.core_path)] = key.fetch(cfg, kind);
    for (const auto& key : core_kind_keys()) doc[json::json_pointer(pointer + key.core_path)] = key.fetch(cfg, kind);
  }
  return doc;
}

json load_config_json(const std::string& path) { return read_config_source(path).doc; }

}  // namespace npusim
