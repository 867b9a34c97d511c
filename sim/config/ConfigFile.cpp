#include "sim/config/ConfigFile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/common/StrictJson.h"
#include "sim/config/ConfigSchema.h"
#include "sim/config/EnergyTableRef.h"

namespace npusim {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char* const kExtendsKey = "extends";

// Who asked for a file: the user (top level) or another file's "extends".
struct Referrer {
  std::string file;
  std::string location;
};

std::string read_text(const std::string& path, const Referrer& referrer) {
  const std::string problem = input_file_problem(path);
  if (problem.empty()) return read_input_file(path);
  std::string what = referrer.location.empty() ? "the file" : fmt::format("'{}'", path);
  throw InputError(referrer.file, referrer.location, fmt::format("cannot read {}: {}", what, problem));
}

json parse_file(const std::string& path, const Referrer& referrer) {
  std::string text = read_text(path, referrer);
  const json doc = parse_strict_json<json>(text, path);
  if (!doc.is_object())
    throw InputError(path, "top level", fmt::format("a config file must hold a JSON object, got a {}", doc.type_name()));
  return doc;
}

// Objects merge key by key; any other value replaces what the base had.
void merge_over(json& base, const json& over) {
  for (const auto& item : over.items()) {
    json& slot = base[item.key()];
    if (slot.is_object() && item.value().is_object()) merge_over(slot, item.value());
    else slot = item.value();
  }
}

void record_origins(const json& doc, const std::string& pointer, const std::string& file,
                    std::map<std::string, std::string>& origin) {
  for (const auto& item : doc.items()) {
    std::string child = pointer + "/" + pointer_token(item.key());
    if (item.value().is_object()) record_origins(item.value(), child, file, origin);
    else origin[child] = file;
  }
}

std::string identity_of(const std::string& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  return ec ? fs::absolute(path).lexically_normal().string() : canonical.string();
}

std::string base_path(const std::string& file, const json& extends) {
  if (!extends.is_string() || extends.get<std::string>().empty())
    throw InputError(file, std::string("/") + kExtendsKey, "expected the base config's file name as a string");
  return (fs::path(file).parent_path() / extends.get<std::string>()).lexically_normal().string();
}

struct Visit {
  std::string shown;
  std::string identity;
};

[[noreturn]] void report_cycle(const std::vector<Visit>& chain, std::size_t first, const std::string& again) {
  std::string path;
  for (std::size_t i = first; i < chain.size(); ++i) path += chain[i].shown + " -> ";
  throw InputError(chain.back().shown, std::string("/") + kExtendsKey, "extends cycle: " + path + again);
}

ConfigSource read_tree(const std::string& path, const Referrer& referrer, std::vector<Visit>& chain) {
  json doc = parse_file(path, referrer);
  anchor_energy_table(doc, path);
  ConfigSource source;
  source.doc = json::object();
  chain.push_back({path, identity_of(path)});
  if (doc.contains(kExtendsKey)) {
    std::string base = base_path(path, doc[kExtendsKey]);
    std::string id = identity_of(base);
    for (std::size_t i = 0; i < chain.size(); ++i)
      if (chain[i].identity == id) report_cycle(chain, i, base);
    source = read_tree(base, {path, std::string("/") + kExtendsKey}, chain);
    doc.erase(kExtendsKey);
  }
  chain.pop_back();
  merge_over(source.doc, doc);
  record_origins(doc, "", path, source.origin_file);
  return source;
}

}  // namespace

ConfigSource read_config_source(const std::string& path) {
  std::vector<Visit> chain;
  return read_tree(path, {path, ""}, chain);
}

std::string origin_of(const ConfigSource& source, const std::string& pointer, const std::string& fallback) {
  if (pointer.empty() || pointer[0] != '/') return fallback;  // "line 3, column 5" and the like
  // A list entry's pointer (".../pci_candidates/2") belongs to the list that holds it.
  for (std::string p = pointer; !p.empty(); p = p.substr(0, p.rfind('/'))) {
    auto found = source.origin_file.find(p);
    if (found != source.origin_file.end()) return found->second;
  }
  return fallback;
}

}  // namespace npusim
