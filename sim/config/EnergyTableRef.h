#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace npusim {

// /chip/energy_table names either a table shipped in configs/energy/ ("default-16nm")
// or a JSON file ("tables/my-7nm.json"), relative to the config file that names it.
inline constexpr const char* kDefaultEnergyTable = "default-16nm";

bool names_energy_table_file(const std::string& value);

// A file reference written in the config file at `config_path` made absolute, so a
// resolved config read from another directory (a sweep point) still finds it.
void anchor_energy_table(nlohmann::json& doc, const std::string& config_path);

// The table file a value names; a shipped name that does not exist is an InputError
// blamed on `config_file` at /chip/energy_table.
std::string energy_table_path(const std::string& value, const std::string& config_file);

}  // namespace npusim
