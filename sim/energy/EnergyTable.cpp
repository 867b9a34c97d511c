#include "sim/energy/EnergyTable.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/common/NearestName.h"
#include "sim/common/StrictJson.h"
#include "sim/energy/EnergyClasses.h"

namespace npusim {

using nlohmann::json;

namespace {

// Keys of `object` outside `allowed` are refused, with a "did you mean" hint.
void check_keys(const json& object, const std::vector<std::string>& allowed, const std::string& file,
                const std::string& at, const std::string& what) {
  for (const auto& item : object.items()) {
    bool known = false;
    for (const auto& a : allowed) known = known || a == item.key();
    if (known) continue;
    const std::string hint = nearest_name(item.key(), allowed);
    throw InputError(file, at + "/" + item.key(),
                     fmt::format("unknown {} '{}'{}; known: {}", what, item.key(),
                                 hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(allowed, ", ")));
  }
}

const json& member(const json& object, const std::string& key, const std::string& file, const std::string& at,
                   const std::string& meaning) {
  if (!object.contains(key)) throw InputError(file, at + "/" + key, "is missing: " + meaning);
  return object.at(key);
}

double non_negative(const json& v, const std::string& file, const std::string& at) {
  if (!v.is_number()) throw InputError(file, at, "expected a number, got " + v.dump());
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < 0) throw InputError(file, at, fmt::format("{} must not be negative", v.dump()));
  if (x > 1e9) throw InputError(file, at, fmt::format("{} is out of range: allowed 0..1e9", v.dump()));
  return x;
}

const json& object_at(const json& v, const std::string& file, const std::string& at) {
  if (!v.is_object()) throw InputError(file, at, "expected a JSON object, got " + std::string(v.type_name()));
  return v;
}

EnergyClassCost read_class(const EnergyClassSpec& spec, const json& body, const std::string& file,
                           const std::string& at) {
  object_at(body, file, at);
  std::vector<std::string> keys = {"actions_pj", "area_mm2", "leakage_mw_per_mm2"};
  if (spec.capacity_scaled) keys.insert(keys.end(), {"reference_capacity_bytes", "capacity_exponent"});
  check_keys(body, keys, file, at, "key");
  EnergyClassCost cost;
  const json& actions = object_at(member(body, "actions_pj", file, at, "pJ of one count of each action"), file,
                                  at + "/actions_pj");
  check_keys(actions, spec.actions, file, at + "/actions_pj", "action of " + spec.name);
  for (const auto& a : spec.actions)
    cost.action_pj[a] = non_negative(member(actions, a, file, at + "/actions_pj", "pJ per " + spec.action_unit),
                                     file, at + "/actions_pj/" + a);
  cost.area_mm2 = non_negative(member(body, "area_mm2", file, at, "mm2 per " + (spec.size_unit.empty() ? std::string("unit (0: off chip)") : spec.size_unit)),
                               file, at + "/area_mm2");
  cost.leakage_mw_per_mm2 =
      non_negative(member(body, "leakage_mw_per_mm2", file, at, "static power density"), file, at + "/leakage_mw_per_mm2");
  if (spec.capacity_scaled) {
    const json& ref = member(body, "reference_capacity_bytes", file, at, "the capacity the action energies are for");
    if (!ref.is_number_integer() || ref.get<double>() < 1)
      throw InputError(file, at + "/reference_capacity_bytes", "expected a whole number of bytes >= 1, got " + ref.dump());
    cost.reference_capacity_bytes = ref.get<std::uint64_t>();
    cost.capacity_exponent = non_negative(member(body, "capacity_exponent", file, at, "energy scaling exponent"),
                                          file, at + "/capacity_exponent");
    if (cost.capacity_exponent > 2)
      throw InputError(file, at + "/capacity_exponent", "is out of range: allowed 0..2");
  }
  return cost;
}

}  // namespace

EnergyTable load_energy_table(const std::string& path, const std::string& referrer, const std::string& referrer_key) {
  const std::string problem = input_file_problem(path);
  if (!problem.empty()) {
    if (referrer.empty()) throw InputError(path, "", "cannot read the energy table: " + problem);
    throw InputError(referrer, referrer_key, fmt::format("cannot read the energy table '{}': {}", path, problem));
  }
  const json doc = parse_strict_json<json>(read_input_file(path), path);
  object_at(doc, path, "top level");
  check_keys(doc, {"name", "node_nm", "description", "classes"}, path, "", "key");
  EnergyTable table;
  table.file = path;
  const json& name = member(doc, "name", path, "", "the table's name");
  if (!name.is_string() || name.get<std::string>().empty())
    throw InputError(path, "/name", "expected a non-empty string");
  table.name = name.get<std::string>();
  table.node_nm = non_negative(member(doc, "node_nm", path, "", "technology node in nm"), path, "/node_nm");
  if (doc.contains("description") && !doc.at("description").is_string())
    throw InputError(path, "/description", "expected a string");
  const json& classes = object_at(member(doc, "classes", path, "", "the component classes"), path, "/classes");
  check_keys(classes, energy_class_names(), path, "/classes", "class");
  for (const auto& item : classes.items())
    table.classes[item.key()] =
        read_class(*find_energy_class(item.key()), item.value(), path, "/classes/" + item.key());
  return table;
}

void require_energy_class(const EnergyTable& table, const std::string& cls, const std::string& who) {
  if (!find_energy_class(cls)) throw std::logic_error(who + " names energy class '" + cls + "', which does not exist");
  if (!table.has(cls))
    throw InputError(table.file, "/classes/" + cls,
                     fmt::format("is missing; the chip needs it for {} ({})", who, find_energy_class(cls)->meaning));
}

double EnergyTable::action_pj(const std::string& cls, const std::string& action, std::uint64_t capacity_bytes) const {
  const EnergyClassCost& c = classes.at(cls);
  auto found = c.action_pj.find(action);
  if (found == c.action_pj.end()) throw std::logic_error("energy class " + cls + " has no action " + action);
  if (c.reference_capacity_bytes == 0) return found->second;
  if (capacity_bytes == 0) throw std::logic_error("a " + cls + " action needs the memory's capacity");
  return found->second * std::pow(double(capacity_bytes) / double(c.reference_capacity_bytes), c.capacity_exponent);
}

double EnergyTable::area_mm2(const std::string& cls, double size) const { return classes.at(cls).area_mm2 * size; }

double EnergyTable::leakage_mw_per_mm2(const std::string& cls) const { return classes.at(cls).leakage_mw_per_mm2; }

}  // namespace npusim
