#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/config/ConfigKeys.h"
#include "sim/config/CoreSections.h"

namespace npusim {

// The one table of hardware config keys: the chip's, then the keys every core
// kind has, then the sections each engine registered from its own folder. The
// loader, the resolved-config printer and docs/config.md are all driven from it.

const std::vector<ConfigKey>& config_schema();

// The keys a /core_kinds/<name> section adds to the core keys (per_cluster, in_clusters).
const std::vector<ConfigKey>& core_kind_keys();

// Why `name` cannot name a core kind, if it cannot.
std::optional<std::string> core_kind_name_problem(const std::string& name);


// "expected an integer", "1..64", "`smp`, `numa`": shared by error messages and docs.
std::string type_name(ValueType type);
std::string allowed_values_text(const ConfigKey& key);

// The markdown table of every key, pasted into docs/config.md between marker comments.
std::string config_reference_markdown();

// "core.matrix.row_bytes" -> "/core/matrix/row_bytes".
std::string config_path_of(const char* dotted_member);

// A key name as one JSON pointer token ('~' and '/' escaped, RFC 6901).
std::string pointer_token(const std::string& name);

}  // namespace npusim

// JSON pointer of a HardwareConfig member; the compiler checks the member exists, so
// code that names a key (cross-field checks) cannot drift from the struct.
#define NPUSIM_CONFIG_PATH(member) \
  (static_cast<void>(sizeof(::npusim::HardwareConfig{}.member)), ::npusim::config_path_of(#member))
