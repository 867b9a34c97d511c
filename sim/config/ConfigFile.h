#pragma once
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace npusim {

// A config file with its "extends" chain resolved: each file's keys deep-merged over
// its base (objects merge, everything else replaces), "extends" itself removed.
struct ConfigSource {
  nlohmann::json doc;
  std::map<std::string, std::string> origin_file;  // JSON pointer of each value -> file that set it
};

// Throws InputError for unreadable files, malformed JSON (with line and column),
// a non-object top level, a bad "extends" value and extends cycles.
ConfigSource read_config_source(const std::string& path);

// The file that set the value at `pointer` (or a list containing it), else `fallback`.
std::string origin_of(const ConfigSource& source, const std::string& pointer, const std::string& fallback);

}  // namespace npusim
