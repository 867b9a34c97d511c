#include "apps/regression/RunDiff.h"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <set>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "sim/common/InputError.h"

namespace npusim {

using nlohmann::ordered_json;

namespace {

using Fields = std::vector<std::pair<std::string, ordered_json>>;

// A list of comparable items; fields are produced on demand so a long
// instructions.csv is never expanded into JSON all at once.
struct Section {
  std::string name;
  std::vector<std::string> keys;
  std::function<Fields(std::size_t)> fields;
};

// Nested objects become dotted names; arrays of scalars become name[i].
void flatten(const ordered_json& value, const std::string& name, Fields& out) {
  if (value.is_object()) {
    for (const auto& [k, v] : value.items()) flatten(v, name.empty() ? k : name + "." + k, out);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) flatten(value[i], fmt::format("{}[{}]", name, i), out);
  } else {
    out.emplace_back(name, value);
  }
}

// Section names in the table; per-layer rows live in workload.rows.
std::string section_name(const std::string& path) {
  if (path == "engines") return "engine";
  if (path == "memories") return "memory";
  if (path == "layers" || path == "workload.rows") return "layer";
  return path;
}

std::string item_key(const ordered_json& row, std::size_t index) {
  if (row.contains("slave") && row.contains("core"))  // matrix_unit_slaves
    return fmt::format("core{}.slave{}", row.at("core").dump(), row.at("slave").dump());
  for (const char* id : {"name", "id", "layer"}) {
    if (!row.contains(id)) continue;
    const auto& v = row.at(id);
    std::string key = v.is_string() ? v.get<std::string>() : v.dump();
    // Rows of several cores may share a layer name.
    if (row.contains("core") && std::string(id) == "layer") key = fmt::format("core{}:{}", row.at("core").dump(), key);
    return key;
  }
  return fmt::format("#{}", index);
}

// dram_channels repeats rows of memories, and instruction_rows repeats
// instructions.csv, so comparing them again would only double the output.
// Repeats of other sections, or descriptions rather than results.
bool is_duplicate_section(const std::string& key) {
  return key == "dram_channels" || key == "instruction_rows" || key == "stat_units" || key == "stat_kinds";
}

bool is_object_array(const ordered_json& v) {
  if (!v.is_array() || v.empty()) return false;
  for (const auto& e : v)
    if (!e.is_object()) return false;
  return true;
}

Section object_array_section(const std::string& path, const ordered_json& rows) {
  Section s{section_name(path), {}, nullptr};
  for (std::size_t i = 0; i < rows.size(); ++i) s.keys.push_back(item_key(rows[i], i));
  const ordered_json* table = &rows;
  s.fields = [table](std::size_t i) {
    Fields f;
    flatten((*table)[i], "", f);
    return f;
  };
  return s;
}

// Arrays of objects (engines, memories, workload.rows, ...) become sections
// matched row by row; every other number is a total.
void collect(const std::string& path, const ordered_json& value, std::vector<Section>& sections, Fields& totals) {
  if (is_object_array(value)) {
    sections.push_back(object_array_section(path, value));
  } else if (value.is_object()) {
    for (const auto& [k, v] : value.items()) collect(path + "." + k, v, sections, totals);
  } else {
    flatten(value, path, totals);
  }
}

Section single_item_section(const std::string& name, Fields fields) {
  return Section{name, {""}, [fields = std::move(fields)](std::size_t) { return fields; }};
}

// Top-level numbers are the "total" section; each top-level object (scheduling,
// workload, ...) is a section of its own, so its long field names stay short.
std::vector<Section> report_sections(const ordered_json& report) {
  std::vector<Section> sections;
  Fields total_fields;
  for (const auto& [key, value] : report.items()) {
    if (is_duplicate_section(key) || key == "schema_version" || value.is_string()) continue;
    if (!value.is_object()) {
      collect(key, value, sections, total_fields);
      continue;
    }
    Fields own;
    collect(key, value, sections, own);
    for (auto& field : own) field.first = field.first.substr(key.size() + 1);
    if (!own.empty()) sections.push_back(single_item_section(key, std::move(own)));
  }
  sections.insert(sections.begin(), single_item_section("total", std::move(total_fields)));
  return sections;
}

// A CSV cell as a JSON number when it is one, so 10 and 10.0 compare equal.
ordered_json csv_value(const std::string& cell) {
  if (!cell.empty()) {
    char* end = nullptr;
    const long long whole = std::strtoll(cell.c_str(), &end, 10);
    if (end == cell.c_str() + cell.size()) return whole;  // shown as written, "3131" not "3131.0"
    double d = std::strtod(cell.c_str(), &end);
    if (end == cell.c_str() + cell.size() && std::isfinite(d)) return d;
  }
  return cell;
}

Section instruction_section(const CsvTable& csv) {
  Section s{"instruction", {}, nullptr};
  std::size_t id_column = 0;
  for (std::size_t c = 0; c < csv.header.size(); ++c)
    if (csv.header[c] == "id") id_column = c;
  for (const auto& row : csv.rows) s.keys.push_back(row[id_column]);
  const CsvTable* table = &csv;
  s.fields = [table, id_column](std::size_t i) {
    Fields f;
    for (std::size_t c = 0; c < table->header.size(); ++c)
      if (c != id_column) f.emplace_back(table->header[c], csv_value(table->rows[i][c]));
    return f;
  };
  return s;
}

std::vector<Section> all_sections(const RunOutputs& run) {
  auto sections = report_sections(run.report);
  sections.push_back(instruction_section(run.instructions));
  return sections;
}

std::string last_component(const std::string& metric) {
  auto dot = metric.rfind('.');
  return dot == std::string::npos ? metric : metric.substr(dot + 1);
}

class Comparer {
 public:
  explicit Comparer(const DiffOptions& options) : options_(options) {}

  bool selected(const std::string& metric) {
    if (options_.metrics.empty()) return true;
    for (const auto& m : options_.metrics)
      if (m == metric || m == last_component(metric)) {
        matched_.insert(m);
        return true;
      }
    return false;
  }

  // The figures compared from here on belong to this item (compare_items compares one
  // item's fields together, so each group's differences are consecutive).
  void open_group(const std::string& section, const std::string& item) {
    drop_empty_group();
    result_.groups.push_back({section, item, 0, result_.differences.size(), 0});
  }

  void compare(const std::string& section, const std::string& item, const std::string& metric,
               const ordered_json* a, const ordered_json* b) {
    if (!selected(metric)) return;
    ++result_.compared;
    ++result_.groups.back().figures;
    Difference d{section, item, metric, a ? text(*a) : "-", b ? text(*b) : "-", std::nullopt};
    if (a && b && a->is_number() && b->is_number()) {
      const double x = a->get<double>();
      const double y = b->get<double>();
      if (x == y) return;
      if (x != 0) {
        d.change_pct = (y - x) / std::fabs(x) * 100.0;
        if (std::fabs(*d.change_pct) <= options_.tolerance_pct) return;
      }
    } else if (a && b && *a == *b) {
      return;
    }
    result_.differences.push_back(std::move(d));
    ++result_.groups.back().differences;
  }

  // Every --metric name must mean something in one of the runs.
  void check_metrics_known(const std::set<std::string>& known) const {
    for (const auto& m : options_.metrics) {
      if (matched_.count(m) || known.count(m)) continue;
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw InputError("--metric", m, "no such metric in either run; known metrics: " + list);
    }
  }

  DiffResult take() {
    drop_empty_group();
    return std::move(result_);
  }

 private:
  // A group none of whose fields --metric selected is no test case.
  void drop_empty_group() {
    if (!result_.groups.empty() && result_.groups.back().figures == 0) result_.groups.pop_back();
  }

  static std::string text(const ordered_json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

  const DiffOptions& options_;
  DiffResult result_;
  std::set<std::string> matched_;
};

const ordered_json* find_field(const Fields& fields, const std::string& name) {
  for (const auto& [k, v] : fields)
    if (k == name) return &v;
  return nullptr;
}

void compare_items(Comparer& cmp, const std::string& section, const std::string& item, const Fields& a,
                   const Fields& b, std::set<std::string>& known) {
  cmp.open_group(section, item);
  for (const auto& [name, value] : a) {
    known.insert(last_component(name));
    cmp.compare(section, item, name, &value, find_field(b, name));
  }
  for (const auto& [name, value] : b) {
    known.insert(last_component(name));
    if (!find_field(a, name)) cmp.compare(section, item, name, nullptr, &value);
  }
}

// Either side may lack the section entirely (e.g. `layers` only in one run).
void compare_sections(Comparer& cmp, const Section* a, const Section* b, std::set<std::string>& known) {
  const std::string& name = a ? a->name : b->name;
  std::unordered_map<std::string, std::size_t> b_index;
  if (b)
    for (std::size_t i = 0; i < b->keys.size(); ++i) b_index.emplace(b->keys[i], i);
  std::set<std::string> seen;
  if (a)
    for (std::size_t i = 0; i < a->keys.size(); ++i) {
      seen.insert(a->keys[i]);
      auto it = b_index.find(a->keys[i]);
      compare_items(cmp, name, a->keys[i], a->fields(i), it == b_index.end() ? Fields{} : b->fields(it->second),
                    known);
    }
  if (b)
    for (std::size_t i = 0; i < b->keys.size(); ++i)
      if (!seen.count(b->keys[i])) compare_items(cmp, name, b->keys[i], Fields{}, b->fields(i), known);
}

const Section* find_section(const std::vector<Section>& sections, const std::string& name) {
  for (const auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace

DiffResult diff_runs(const RunOutputs& a, const RunOutputs& b, const DiffOptions& options) {
  if (!(options.tolerance_pct >= 0))
    throw InputError("--tolerance", "", fmt::format("must be a percentage >= 0, got {}", options.tolerance_pct));
  const auto a_sections = all_sections(a);
  const auto b_sections = all_sections(b);
  Comparer cmp(options);
  std::set<std::string> known;
  for (const auto& s : a_sections) compare_sections(cmp, &s, find_section(b_sections, s.name), known);
  for (const auto& s : b_sections)
    if (!find_section(a_sections, s.name)) compare_sections(cmp, nullptr, &s, known);
  cmp.check_metrics_known(known);
  return cmp.take();
}

}  // namespace npusim
