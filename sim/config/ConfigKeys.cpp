#include "sim/config/ConfigKeys.h"

namespace npusim {

namespace {

constexpr double kMaxBandwidth = 4096;  // bytes/cycle: a 32 Kbit path is already beyond any real port
// A port slower than a byte per thousand cycles models nothing real, and the
// bound keeps the longest transfer (4 GiB of scratchpad) within 64-bit cycle counts
// and SystemC's time range: 1e-300 once passed as "more than 0" and overflowed.
constexpr double kMinBandwidth = 0.001;
constexpr double kMaxQueue = 1024;

ConfigKey make_key(Field f, ValueType type, nlohmann::json default_value, ValueLimits limits, std::string unit,
                   std::string meaning) {
  ConfigKey k;
  k.path = std::move(f.path);
  k.core_path = std::move(f.core_path);
  k.scope = f.scope;
  k.type = type;
  k.unit = std::move(unit);
  k.default_value = std::move(default_value);
  k.limits = limits;
  k.meaning = std::move(meaning);
  k.store = std::move(f.store);
  k.fetch = std::move(f.fetch);
  return k;
}

}  // namespace

ValueLimits within(double min, double max) { return ValueLimits{min, max}; }

ValueLimits powers_of_two(double min, double max) {
  ValueLimits l = within(min, max);
  l.power_of_two = true;
  return l;
}

ValueLimits off_or(ValueLimits l) {
  l.zero_allowed = true;
  return l;
}

ValueLimits non_empty(ValueLimits l) {
  l.non_empty = true;
  return l;
}

ConfigKey integer(Field f, std::uint64_t def, ValueLimits limits, std::string unit, std::string meaning) {
  return make_key(std::move(f), ValueType::Integer, def, limits, std::move(unit), std::move(meaning));
}

ConfigKey number(Field f, double def, ValueLimits limits, std::string unit, std::string meaning) {
  return make_key(std::move(f), ValueType::Number, def, limits, std::move(unit), std::move(meaning));
}

ConfigKey bandwidth(Field f, double def, std::string meaning) {
  return number(std::move(f), def, within(kMinBandwidth, kMaxBandwidth), "bytes/cycle", std::move(meaning));
}

ConfigKey latency(Field f, std::uint64_t def, std::string meaning, double max_cycles) {
  return integer(std::move(f), def, within(0, max_cycles), "cycles", std::move(meaning));
}

ConfigKey queue_depth(Field f, std::uint64_t def, std::string meaning) {
  return integer(std::move(f), def, within(1, kMaxQueue), "count", std::move(meaning));
}

ConfigKey flag(Field f, bool def, std::string meaning) {
  return make_key(std::move(f), ValueType::Bool, def, {}, "-", std::move(meaning));
}

ConfigKey text(Field f, std::string def, std::string meaning) {
  return make_key(std::move(f), ValueType::String, std::move(def), {}, "-", std::move(meaning));
}

ConfigKey choice(Field f, std::string def, std::vector<std::string> choices, std::string meaning) {
  ConfigKey k = make_key(std::move(f), ValueType::Choice, std::move(def), {}, "-", std::move(meaning));
  k.choices = std::move(choices);
  return k;
}

ConfigKey integer_list(Field f, std::vector<std::uint32_t> def, ValueLimits limits, std::string unit,
                       std::string meaning) {
  return make_key(std::move(f), ValueType::IntegerList, def, limits, std::move(unit), std::move(meaning));
}

ConfigKey name_list(Field f, std::vector<std::string> def, std::vector<std::string> choices, std::string meaning) {
  ConfigKey k = make_key(std::move(f), ValueType::StringList, def, {}, "-", std::move(meaning));
  k.choices = std::move(choices);
  return k;
}

}  // namespace npusim
