#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/sweep/SweepSpec.h"

namespace npusim {

struct SweepPoint {
  std::size_t index = 0;
  std::vector<nlohmann::json> values;  // one per axis, in spec order
  std::string name;                    // directory name: "003-slaves=8_nram=65536"
};

// The points in a fixed order: cross product with the first axis varying
// slowest (like nested loops), or the i-th value of every axis in zip mode.
std::vector<SweepPoint> expand_points(const SweepSpec& spec);

// The base config (or workload) document with this point's values written at the
// pointers of the config (or workload) axes.
nlohmann::json point_config(const nlohmann::json& base, const SweepSpec& spec, const SweepPoint& point);
nlohmann::json point_workload(const nlohmann::json& base, const SweepSpec& spec, const SweepPoint& point);

// A value as shown in names and results.csv: strings bare, the rest as JSON.
std::string value_text(const nlohmann::json& value);

}  // namespace npusim
