#include "sim/report/QuotedNames.h"

#include <nlohmann/json.hpp>

namespace npusim {

namespace {

std::string json_literal(const std::string& name) { return nlohmann::json(name).dump(); }

std::string csv_field(const std::string& name) {
  if (name.find_first_of(",\"\r\n") == std::string::npos) return name;
  std::string field = "\"";
  for (char c : name) {
    if (c == '"') field += '"';  // a quote inside a quoted field is doubled
    field += c;
  }
  return field + "\"";
}

template <typename Quote>
std::string cached(std::unordered_map<std::string, std::string>& cache, std::size_t limit,
                   const std::string& name, Quote quote) {
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  std::string quoted = quote(name);
  if (cache.size() < limit) cache.emplace(name, quoted);
  return quoted;
}

}  // namespace

std::string QuotedNames::json(const std::string& name) {
  return cached(json_, kMaxCached, name, json_literal);
}

std::string QuotedNames::csv(const std::string& name) {
  return cached(csv_, kMaxCached, name, csv_field);
}

}  // namespace npusim
