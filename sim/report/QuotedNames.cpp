#include "sim/report/QuotedNames.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace npusim {

namespace {

// A printable ASCII name with nothing to escape (the usual case) is only quoted; anything
// else goes through the JSON library (escapes, UTF-8 checks).
std::string json_literal(const std::string& name) {
  const bool plain = std::all_of(name.begin(), name.end(), [](char c) {
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
  });
  if (plain) return '"' + name + '"';
  return nlohmann::json(name).dump();
}

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

std::string QuotedNames::json_uncached(const std::string& name) { return json_literal(name); }

std::string QuotedNames::json(const std::string& name) {
  return cached(json_, kMaxCached, name, json_literal);
}

std::string QuotedNames::csv(const std::string& name) {
  return cached(csv_, kMaxCached, name, csv_field);
}

}  // namespace npusim
