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

// Walks "/a/b/c" registering a under "", b under "/a", c under "/a/b".
void add_path(KeyTree& tree, const std::string& path) {
  tree.values.insert(path);
  std::size_t slash = 0;
  while (slash != std::string::npos) {
    std::size_t next = path.find('/', slash + 1);
    std::string parent = path.substr(0, slash);
    std::string name = path.substr(slash + 1, next == std::string::npos ? std::string::npos : next - slash - 1);
    add_child(tree, parent, name);
    slash = next;
  }
}

// The whole document: chip keys and the /core section, plus /core_kinds as a group
// of named kinds (checked against kind_tree()).
const KeyTree& key_tree() {
  static const KeyTree tree = [] {
    KeyTree t;
    for (const auto& key : config_schema()) add_path(t, key.path);
    add_child(t, "", "core_kinds");
    return t;
  }();
  return tree;
}

// One core kind: the per-kind keys of a core section plus the kind's own keys.
const KeyTree& kind_tree() {
  static const KeyTree tree = [] {
    KeyTree t;
    for (const auto& key : config_schema())
      if (key.scope == KeyScope::Core) add_path(t, key.core_path);
    for (const auto& key : core_kind_keys()) add_path(t, key.core_path);
    return t;
  }();
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

void check_kinds(const json& kinds, const std::string& file);

// `pointer` is where the group sits in the document; `schema` is the same place in `tree`.
void check_group(const KeyTree& tree, const json& group, const std::string& schema, const std::string& pointer,
                 const std::string& file) {
  const auto& children = tree.groups.at(schema);
  for (const auto& item : group.items()) {
    std::string child = pointer + "/" + pointer_token(item.key());
    std::string child_schema = schema + "/" + pointer_token(item.key());
    if (tree.values.count(child_schema)) continue;  // its type is checked with its value
    if (&tree == &key_tree() && child == "/core_kinds") {
      check_kinds(item.value(), file);
      continue;
    }
    if (!tree.groups.count(child_schema))
      throw InputError(file, child, unknown_key_reason(item.key(), pointer, children));
    if (!item.value().is_object())
      throw InputError(file, child, fmt::format("expected an object of keys, got {}", describe(item.value())));
    check_group(tree, item.value(), child_schema, child, file);
  }
}

void check_kinds(const json& kinds, const std::string& file) {
  if (!kinds.is_object())
    throw InputError(file, "/core_kinds",
                     fmt::format("expected an object of core kinds by name, got {}", describe(kinds)));
  for (const auto& kind : kinds.items()) {
    const std::string pointer = "/core_kinds/" + pointer_token(kind.key());
    if (auto problem = core_kind_name_problem(kind.key())) throw InputError(file, pointer, *problem);
    if (!kind.value().is_object())
      throw InputError(file, pointer, fmt::format("expected an object of keys, got {}", describe(kind.value())));
    check_group(kind_tree(), kind.value(), "", pointer, file);
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

void check_list(const ConfigKey& key, const json& value, const std::string& location, const std::string& file) {
  if (!value.is_array()) wrong_type(value, location, file, type_name(key.type));
  if (key.limits.non_empty && value.empty()) throw InputError(file, location, "must not be empty");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < value.size(); ++i) {
    std::string entry = fmt::format("{}/{}", location, i);
    if (key.type == ValueType::IntegerList) {
      check_scalar_number(key, value[i], entry, file, true);
    } else {
      check_name(key, value[i], entry, file);
      if (!seen.insert(value[i].get<std::string>()).second)
        throw InputError(file, entry, fmt::format("'{}' is listed twice", value[i].get<std::string>()));
    }
  }
}

}  // namespace

void check_known_keys(const json& doc, const std::string& file) {
  if (!doc.is_object()) throw InputError(file, "top level", fmt::format("expected an object of keys, got {}", describe(doc)));
  check_group(key_tree(), doc, "", "", file);
}

void check_value(const ConfigKey& key, const json& value, const std::string& location, const std::string& file) {
  switch (key.type) {
    case ValueType::Bool:
      if (!value.is_boolean()) wrong_type(value, location, file, "true or false");
      return;
    case ValueType::String:
      if (!value.is_string()) wrong_type(value, location, file, "a string");
      if (value.get<std::string>().empty()) throw InputError(file, location, "must not be empty");
      return;
    case ValueType::Choice: check_name(key, value, location, file); return;
    case ValueType::Integer: check_scalar_number(key, value, location, file, true); return;
    case ValueType::Number: check_scalar_number(key, value, location, file, false); return;
    case ValueType::IntegerList:
    case ValueType::StringList: check_list(key, value, location, file); return;
  }
}

}  // namespace npusim
