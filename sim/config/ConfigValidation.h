#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/config/ConfigSchema.h"

namespace npusim {

// Every key of `doc` must be a schema key or a group of them; otherwise InputError
// at that key's JSON pointer, with the nearest valid sibling as a suggestion.
void check_known_keys(const nlohmann::json& doc, const std::string& file);

// `value` must have the key's type and lie within its limits; otherwise InputError at `location`.
void check_value(const ConfigKey& key, const nlohmann::json& value, const std::string& location,
                 const std::string& file);

}  // namespace npusim
