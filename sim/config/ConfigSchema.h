#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/config/HardwareConfig.h"

namespace npusim {

// The one table of hardware config keys: path, type, unit, default, allowed values,
// meaning and where the value lives in HardwareConfig. The loader, the resolved-config
// printer and docs/config.md are all driven from it, so a key is described only here.

enum class ValueType { Bool, Integer, Number, String, Choice, IntegerList, StringList };

// Allowed values of a number, or of each entry of a list.
struct ValueLimits {
  double min = 0;
  double max = 0;
  bool power_of_two = false;
  bool zero_allowed = false;   // 0 is accepted as an "off" value outside [min, max]
  bool non_empty = false;      // lists only
};

struct ConfigKey {
  std::string path;  // JSON pointer, e.g. "/chip/dram/channels"
  ValueType type;
  std::string unit;
  nlohmann::json default_value;
  ValueLimits limits;
  std::vector<std::string> choices;  // Choice, and the entries of a StringList
  std::string meaning;
  std::function<void(HardwareConfig&, const nlohmann::json&)> store;
  std::function<nlohmann::json(const HardwareConfig&)> fetch;
};

const std::vector<ConfigKey>& config_schema();

// Engine names a core may list in core.engines; new engine kinds are added here.
const std::vector<std::string>& known_engine_names();

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
