#include "sim/config/ConfigValidation.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/common/NearestName.h"

namespace npusim {

using nlohmann::json;

namespace {

// The schema's keys as a tree: which names each group may hold, and which are values.
struct KeyTree {
  std::map<std::string, std::vector<std::string>> groups;  // group pointer -> child names
  std::set<std::string> values;
};

void add_child(KeyTree& tree, const std::string& parent, const std::string& name) {
  auto& names = tree.groups[parent];
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

KeyTree build_key_tree() {
  KeyTree tree;
  for (const auto& key : config_schema()) {
    tree.values.insert(key.path);
    // Walk "/a/b/c" registering a under "", b under "/a", c under "/a/b".
    std::size_t slash = 0;
    while (slash != std::string::npos) {
      std::size_t next = key.path.find('/', slash + 1);
      std::string parent = key.path.substr(0, slash);
      std::string name = key.path.substr(slash + 1, next == std::string::npos ? std::string::npos : next - slash - 1);
      add_child(tree, parent, name);
      slash = next;
    }
  }
  return tree;
}

const KeyTree& key_tree() {
  static const KeyTree tree = build_key_tree();
  return tree;
}

std::string describe(const json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "a list";
  return value.dump();
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "'" : ", '") + n + "'";
  return text;
}

std::string unknown_key_reason(const std::string& name, const std::string& parent,
                               const std::vector<std::string>& siblings) {
  if (parent.empty() && name == "extends")
    return "'extends' is only followed when a config is loaded from a file";
  std::string guess = nearest_name(name, siblings);
  if (!guess.empty()) return fmt::format("unknown key '{}'; did you mean '{}'?", name, guess);
  return fmt::format("unknown key '{}'; keys allowed here: {}", name, joined(siblings));
}

void check_group(const json& group, const std::string& pointer, const std::string& file) {
  const KeyTree& tree = key_tree();
  const auto& children = tree.groups.at(pointer);
  for (const auto& item : group.items()) {
    std::string child = pointer + "/" + pointer_token(item.key());
    if (tree.values.count(child)) continue;  // its type is checked with its value
    if (!tree.groups.count(child)) throw InputError(file, child, unknown_key_reason(item.key(), pointer, children));
    if (!item.value().is_object())
      throw InputError(file, child, fmt::format("expected an object of keys, got {}", describe(item.value())));
    check_group(item.value(), child, file);
  }
}

[[noreturn]] void wrong_type(const json& value, const std::string& location,
                             const std::string& file, const std::string& expected) {
  throw InputError(file, location, fmt::format("expected {}, got {}", expected, describe(value)));
}

bool is_power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

void check_scalar_number(const ConfigKey& key, const json& value, const std::string& location,
                         const std::string& file, bool integral) {
  if (integral ? !value.is_number_integer() : !value.is_number())
    wrong_type(value, location, file, integral ? "an integer" : "a number");
  const ValueLimits& l = key.limits;
  double x = value.get<double>();
  if (l.zero_allowed && x == 0) return;
  bool inside = x >= l.min && x <= l.max;
  if (!inside)
    throw InputError(file, location,
                     fmt::format("{} is out of range: allowed {}", value.dump(), allowed_values_text(key)));
  if (l.power_of_two && !is_power_of_two(value.get<std::uint64_t>()))
    throw InputError(file, location,
                     fmt::format("{} is not a power of two: allowed {}", value.dump(), allowed_values_text(key)));
}

void check_name(const ConfigKey& key, const json& value, const std::string& location, const std::string& file) {
  if (!value.is_string()) wrong_type(value, location, file, "a string");
  const std::string name = value.get<std::string>();
  if (std::find(key.choices.begin(), key.choices.end(), name) != key.choices.end()) return;
  std::string reason = fmt::format("'{}' is not a valid choice: allowed {}", name, joined(key.choices));
  std::string guess = nearest_name(name, key.choices);
  if (!guess.empty()) reason += fmt::format("; did you mean '{}'?", guess);
  throw InputError(file, location, reason);
}

void check_list(const ConfigKey& key, const json& value, const std::string& file) {
  if (!value.is_array()) wrong_type(value, key.path, file, type_name(key.type));
  if (key.limits.non_empty && value.empty()) throw InputError(file, key.path, "must not be empty");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < value.size(); ++i) {
    std::string location = fmt::format("{}/{}", key.path, i);
    if (key.type == ValueType::IntegerList) {
      check_scalar_number(key, value[i], location, file, true);
    } else {
      check_name(key, value[i], location, file);
      if (!seen.insert(value[i].get<std::string>()).second)
        throw InputError(file, location, fmt::format("'{}' is listed twice", value[i].get<std::string>()));
    }
  }
}

}  // namespace

void check_known_keys(const json& doc, const std::string& file) {
  if (!doc.is_object()) throw InputError(file, "top level", fmt::format("expected an object of keys, got {}", describe(doc)));
  check_group(doc, "", file);
}

void check_value(const ConfigKey& key, const json& value, const std::string& file) {
  switch (key.type) {
    case ValueType::Bool:
      if (!value.is_boolean()) wrong_type(value, key.path, file, "true or false");
      return;
    case ValueType::String:
      if (!value.is_string()) wrong_type(value, key.path, file, "a string");
      if (value.get<std::string>().empty()) throw InputError(file, key.path, "must not be empty");
      return;
    case ValueType::Choice: check_name(key, value, key.path, file); return;
    case ValueType::Integer: check_scalar_number(key, value, key.path, file, true); return;
    case ValueType::Number: check_scalar_number(key, value, key.path, file, false); return;
    case ValueType::IntegerList:
    case ValueType::StringList: check_list(key, value, file); return;
  }
}

}  // namespace npusim
