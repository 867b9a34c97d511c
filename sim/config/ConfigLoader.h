#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/config/HardwareConfig.h"

namespace npusim {

// Reads a hardware config file (following "extends"), validates it against the
// schema and fills every key left out with its default. Errors are InputError.
HardwareConfig load_hardware_config(const std::string& path);

// Validates an already merged document; `file_for_messages` names it in errors.
HardwareConfig parse_hardware_config(const nlohmann::json& doc, const std::string& file_for_messages);

// The default chip: seed000's embodiment core, one core.
HardwareConfig default_hardware_config();

// Every key with its value, defaults included; keys sorted, so output is stable.
nlohmann::json resolved_config_json(const HardwareConfig& cfg);

// The merged raw document of a file and its "extends" chain, not validated.
nlohmann::json load_config_json(const std::string& path);

}  // namespace npusim
