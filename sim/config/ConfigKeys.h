#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/common/JsonInteger.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// How one config key is described: type, unit, default, limits and meaning, and
// where its value lives. Chip keys are built in ConfigSchema.cpp; each block
// declares the keys of its own core section in its own folder (CoreSections.h).

enum class ValueType { Bool, Integer, Number, String, Choice, IntegerList, StringList };

// Allowed values of a number, or of each entry of a list.
struct ValueLimits {
  double min = 0;
  double max = 0;
  bool power_of_two = false;
  bool zero_allowed = false;   // 0 is accepted as an "off" value outside [min, max]
  bool non_empty = false;      // lists only
};

// Chip keys have one value; core keys have one per core kind (/core and each /core_kinds/<name>).
enum class KeyScope { Chip, Core };

struct ConfigKey {
  std::string path;       // JSON pointer as written for the /core section: "/core/matrix/slaves"
  std::string core_path;  // core keys: the pointer inside one core section, "/matrix/slaves"
  KeyScope scope = KeyScope::Chip;
  ValueType type = ValueType::Integer;
  std::string unit;
  nlohmann::json default_value;
  ValueLimits limits;
  std::vector<std::string> choices;  // Choice, and the entries of a StringList
  std::string meaning;
  // `core` is the core kind being read; chip keys ignore it.
  std::function<void(HardwareConfig&, CoreConfig& core, const nlohmann::json&)> store;
  std::function<nlohmann::json(const HardwareConfig&, const CoreConfig& core)> fetch;
};

// Where a key's value lives, before its description is attached.
struct Field {
  std::string path;
  std::string core_path;
  KeyScope scope = KeyScope::Chip;
  std::function<void(HardwareConfig&, CoreConfig&, const nlohmann::json&)> store;
  std::function<nlohmann::json(const HardwareConfig&, const CoreConfig&)> fetch;
};

// The JSON value converted to the member's own type. Integers are range-checked
// by the schema first; a value that still does not fit is a schema bug.
template <class T>
T config_value_as(const nlohmann::json& value) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (auto n = json_integer_as<T>(value)) return *n;
    throw std::logic_error("config value " + value.dump() + " does not fit its field");
  } else if constexpr (std::is_same_v<T, std::vector<std::uint32_t>>) {
    T list;
    for (const nlohmann::json& v : value) list.push_back(config_value_as<std::uint32_t>(v));
    return list;
  } else {
    return value.get<T>();
  }
}

// The fields of one core section's struct, named by member pointer:
//   SectionFields<MatrixUnitConfig> mx("matrix");  mx("slaves", &MatrixUnitConfig::slaves)
template <class T>
class SectionFields {
 public:
  using Locate = std::function<T&(CoreConfig&)>;
  explicit SectionFields(const std::string& section)
      : prefix_("/" + section), locate_([section](CoreConfig& c) -> T& { return c.blocks.get<T>(section); }) {}
  SectionFields(std::string prefix, Locate locate) : prefix_(std::move(prefix)), locate_(std::move(locate)) {}

  template <class M>
  Field operator()(const char* name, M T::*member) const {
    Field f;
    f.core_path = prefix_ + "/" + name;
    f.path = "/core" + f.core_path;
    f.scope = KeyScope::Core;
    Locate locate = locate_;
    f.store = [locate, member](HardwareConfig&, CoreConfig& c, const nlohmann::json& v) {
      locate(c).*member = config_value_as<M>(v);
    };
    // fetch only reads through the reference.
    f.fetch = [locate, member](const HardwareConfig&, const CoreConfig& c) {
      return nlohmann::json(locate(const_cast<CoreConfig&>(c)).*member);
    };
    return f;
  }

  // A struct inside the section, e.g. the matrix unit's broadcast_bus.
  template <class U>
  SectionFields<U> nested(const char* name, U T::*member) const {
    Locate outer = locate_;
    return SectionFields<U>(prefix_ + "/" + name, [outer, member](CoreConfig& c) -> U& { return outer(c).*member; });
  }

 private:
  std::string prefix_;
  Locate locate_;
};

// An engine section's key list as its block declares it: the section's fields, the words
// that open the meaning of its keys ("shader core (seed003 204, assumption): ") and, first,
// the queue depth every engine has:
//   EngineSectionKeys<ShaderCoreConfig> sh("shader core ...: ", 4, "ml_matmul instructions waiting to issue");
//   sh.add(integer(sh("lanes", &ShaderCoreConfig::lanes), 64, ..., sh.what + "SIMD lanes of the datapath"));
template <class T>
class EngineSectionKeys : public SectionFields<T> {
 public:
  EngineSectionKeys(std::string what, std::uint64_t queue_default, const std::string& queued);
  void add(ConfigKey key) { keys.push_back(std::move(key)); }

  const std::string what;
  std::vector<ConfigKey> keys;
};

// Key builders, so every block describes its keys the same way.
ValueLimits within(double min, double max);
ValueLimits powers_of_two(double min, double max);
ValueLimits off_or(ValueLimits l);
ValueLimits non_empty(ValueLimits l);

ConfigKey integer(Field f, std::uint64_t def, ValueLimits limits, std::string unit, std::string meaning);
ConfigKey number(Field f, double def, ValueLimits limits, std::string unit, std::string meaning);
ConfigKey bandwidth(Field f, double def, std::string meaning);          // bytes/cycle, the common range
// Delays in cycles: a memory's or the network's take up to kMaxLatency; one inside a block
// (a pipeline, a bus transfer, a control-register write) is bounded by kMaxBlockLatency.
constexpr double kMaxLatency = 100000;
constexpr double kMaxBlockLatency = 10000;
ConfigKey latency(Field f, std::uint64_t def, std::string meaning, double max_cycles = kMaxLatency);
ConfigKey queue_depth(Field f, std::uint64_t def, std::string meaning);
ConfigKey flag(Field f, bool def, std::string meaning);
ConfigKey text(Field f, std::string def, std::string meaning);
ConfigKey choice(Field f, std::string def, std::vector<std::string> choices, std::string meaning);
ConfigKey integer_list(Field f, std::vector<std::uint32_t> def, ValueLimits limits, std::string unit,
                       std::string meaning);
ConfigKey name_list(Field f, std::vector<std::string> def, std::vector<std::string> choices, std::string meaning);

template <class T>
EngineSectionKeys<T>::EngineSectionKeys(std::string what, std::uint64_t queue_default, const std::string& queued)
    : SectionFields<T>(T::kSection), what(std::move(what)) {
  add(queue_depth((*this)("queue_depth", &T::queue_depth), queue_default, this->what + queued));
}

// Size units for limits.
constexpr double KiB = 1024.0;
constexpr double MiB = 1024.0 * KiB;
constexpr double GiB = 1024.0 * MiB;
constexpr double TiB = 1024.0 * GiB;

}  // namespace npusim
