#include "apps/sweep/SweepSpec.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/common/StrictJson.h"
#include "apps/sweep/SweepResults.h"
#include "sim/trace/TraceReader.h"

namespace npusim {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::set<std::string> kSpecKeys = {"description", "config", "trace", "workload", "functional", "rows", "mode",
                                         "axes", "backend", "slurm"};
const std::set<std::string> kSlurmKeys = {"partition", "array_limit", "points_per_task", "sbatch_args"};
const std::set<std::string> kAxisKeys = {"name", "pointer", "values", "in"};

// The input map's file or any layer's weights: .npy files named relative to the workload.
bool names_npy_files(const json& w) {
  const bool input_file = w.contains("input") && w["input"].is_object() && w["input"].contains("file");
  return input_file || (w.contains("layers") && w["layers"].is_array() &&
                        std::any_of(w["layers"].begin(), w["layers"].end(),
                                    [](const json& l) { return l.is_object() && l.contains("weights"); }));
}

class SpecReader {
 public:
  explicit SpecReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& reason) const {
    throw InputError(file_, where, reason);
  }

  void check_keys(const json& obj, const std::set<std::string>& allowed, const std::string& where) const {
    if (!obj.is_object()) fail(where.empty() ? "/" : where, "expected a JSON object");
    for (const auto& item : obj.items())
      if (!allowed.count(item.key())) {
        std::string list;
        for (const auto& k : allowed) list += (list.empty() ? "" : ", ") + k;
        fail(where + "/" + item.key(), "unknown key; expected one of: " + list);
      }
  }

  std::string string_at(const json& obj, const std::string& key, const std::string& where) const {
    const json& v = obj.at(key);
    if (!v.is_string() || v.get<std::string>().empty()) fail(where + "/" + key, "expected a non-empty string");
    return v.get<std::string>();
  }

  // Relative to the spec file; the file must exist.
  std::string path_at(const json& obj, const std::string& key) const {
    fs::path p = string_at(obj, key, "");
    if (p.is_relative()) p = fs::path(file_).parent_path() / p;
    p = p.lexically_normal();
    if (!fs::is_regular_file(p)) fail("/" + key, fmt::format("no such file: {}", p.string()));
    return fs::absolute(p).string();
  }

  std::uint32_t count_at(const json& obj, const std::string& key, const std::string& where) const {
    const json& v = obj.at(key);
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() < 1 || v.get<std::uint64_t>() > 1000000)
      fail(where + "/" + key, "expected a whole number from 1 to 1000000");
    return v.get<std::uint32_t>();
  }

  SlurmSettings slurm(const json& obj) const {
    check_keys(obj, kSlurmKeys, "/slurm");
    SlurmSettings s;
    if (obj.contains("partition")) s.partition = string_at(obj, "partition", "/slurm");
    if (obj.contains("array_limit")) s.array_limit = count_at(obj, "array_limit", "/slurm");
    if (obj.contains("points_per_task")) s.points_per_task = count_at(obj, "points_per_task", "/slurm");
    if (obj.contains("sbatch_args")) {
      const json& args = obj.at("sbatch_args");
      if (!args.is_array()) fail("/slurm/sbatch_args", "expected a list of strings");
      for (std::size_t i = 0; i < args.size(); ++i) {
        if (!args[i].is_string()) fail(fmt::format("/slurm/sbatch_args/{}", i), "expected a string");
        s.sbatch_args.push_back(args[i].get<std::string>());
      }
    }
    return s;
  }

  SweepAxis axis(const json& obj, std::size_t i) const {
    const std::string where = fmt::format("/axes/{}", i);
    check_keys(obj, kAxisKeys, where);
    if (!obj.contains("pointer")) fail(where, "missing \"pointer\" (a JSON pointer into the config)");
    if (!obj.contains("values")) fail(where, "missing \"values\" (a non-empty list)");
    SweepAxis a;
    a.pointer = string_at(obj, "pointer", where);
    if (obj.contains("in")) {
      const std::string in = string_at(obj, "in", where);
      if (in != "config" && in != "workload") fail(where + "/in", "expected \"config\" (default) or \"workload\"");
      a.in_workload = in == "workload";
    }
    try {
      json::json_pointer check(a.pointer);
    } catch (const json::exception&) {
      fail(where + "/pointer", fmt::format("'{}' is not a JSON pointer (it starts with /)", a.pointer));
    }
    if (a.pointer.empty() || a.pointer == "/") fail(where + "/pointer", "must name a key inside the config");
    const json& values = obj.at("values");
    if (!values.is_array() || values.empty()) fail(where + "/values", "expected a non-empty list");
    a.values.assign(values.begin(), values.end());
    a.name = obj.contains("name") ? string_at(obj, "name", where) : default_name(a.pointer);
    return a;
  }

  // "config" and exactly one of "trace" and "workload", each relative to the spec file.
  void read_inputs(const json& doc, SweepSpec& spec) const {
    if (!doc.contains("config")) fail("/", "missing \"config\" (the base hardware config)");
    spec.config = path_at(doc, "config");
    if (doc.contains("trace") == doc.contains("workload"))
      fail("/", "give exactly one of \"trace\" (a trace file) or \"workload\" (a workload file)");
    if (doc.contains("trace")) spec.trace = path_at(doc, "trace");
    if (doc.contains("workload")) spec.workload = path_at(doc, "workload");
  }

  // How each point runs and how the points are formed and spread: functional, rows, mode, backend, slurm.
  void read_run_settings(const json& doc, SweepSpec& spec) const {
    if (doc.contains("functional")) {
      if (!doc.at("functional").is_boolean()) fail("/functional", "expected true or false");
      spec.functional = doc.at("functional").get<bool>();
    }
    if (doc.contains("rows")) {
      spec.rows = string_at(doc, "rows", "");
      if (spec.rows != "all" && spec.rows != "layers" && spec.rows != "none")
        fail("/rows", "expected \"all\", \"layers\" or \"none\"");
    }
    if (doc.contains("mode")) {
      const std::string mode = string_at(doc, "mode", "");
      if (mode != "cross" && mode != "zip") fail("/mode", "expected \"cross\" or \"zip\"");
      spec.zip = mode == "zip";
    }
    if (doc.contains("backend")) {
      spec.backend = string_at(doc, "backend", "");
      if (spec.backend != "local" && spec.backend != "slurm") fail("/backend", "expected \"local\" or \"slurm\"");
    }
    if (doc.contains("slurm")) spec.slurm = slurm(doc.at("slurm"));
  }

  // Each axis names its own results.csv column.
  std::vector<SweepAxis> axes(const json& doc) const {
    if (!doc.contains("axes") || !doc.at("axes").is_array() || doc.at("axes").empty())
      fail("/axes", "expected a non-empty list of {\"pointer\": ..., \"values\": [...]}");
    std::vector<SweepAxis> list;
    std::set<std::string> names;
    for (std::size_t i = 0; i < doc.at("axes").size(); ++i) {
      list.push_back(axis(doc.at("axes")[i], i));
      const std::string& name = list.back().name;
      if (is_results_column(name))
        fail(fmt::format("/axes/{}/name", i),
             fmt::format("'{}' is a results.csv column already; give the axis another \"name\"", name));
      if (!names.insert(name).second)
        fail(fmt::format("/axes/{}", i), fmt::format("axis name '{}' is used twice", name));
    }
    return list;
  }

  // A workload axis edits a copy of a JSON workload written inside the sweep directory.
  void check_workload_axes(const SweepSpec& spec) const {
    for (std::size_t i = 0; i < spec.axes.size(); ++i) {
      if (!spec.axes[i].in_workload) continue;
      const std::string where = fmt::format("/axes/{}/in", i);
      if (spec.workload.empty() || fs::path(spec.workload).extension() != ".json")
        fail(where, "workload axes need a JSON \"workload\" (not a trace or a layer table)");
      // The point's workload is written elsewhere, so relative .npy paths would break.
      if (names_npy_files(parse_strict_json<json>(read_input_file(spec.workload), spec.workload)))
        fail(where, "workload axes need a workload without .npy files (its copy per point is written "
                    "inside the sweep directory, where relative paths would not resolve)");
    }
  }

  // Zip mode pairs the axes' values up, so every axis has as many as the first.
  void check_zip_lengths(const SweepSpec& spec) const {
    if (!spec.zip) return;
    for (std::size_t i = 1; i < spec.axes.size(); ++i)
      if (spec.axes[i].values.size() != spec.axes[0].values.size())
        fail(fmt::format("/axes/{}/values", i),
             fmt::format("zip mode needs equal lengths: {} values here, {} in the first axis",
                         spec.axes[i].values.size(), spec.axes[0].values.size()));
  }

 private:
  static std::string default_name(const std::string& pointer) {
    std::string name = pointer.substr(1);
    for (char& c : name)
      if (c == '/') c = '.';
    return name;
  }

  std::string file_;
};

}  // namespace

bool SweepSpec::has_workload_axes() const {
  return std::any_of(axes.begin(), axes.end(), [](const SweepAxis& a) { return a.in_workload; });
}

SweepSpec load_sweep_spec(const std::string& path) {
  if (looks_like_trace(path))
    throw InputError(path, "", "this is an instruction trace; npusim sweep takes a sweep spec (a JSON object "
                               "naming config, trace or workload, and axes; see docs/sweeps.md)");
  const json doc = parse_strict_json<json>(read_input_file(path), path);
  SpecReader reader(path);
  reader.check_keys(doc, kSpecKeys, "");
  SweepSpec spec;
  spec.file = path;
  reader.read_inputs(doc, spec);
  reader.read_run_settings(doc, spec);
  spec.axes = reader.axes(doc);
  reader.check_workload_axes(spec);
  reader.check_zip_lengths(spec);
  return spec;
}

}  // namespace npusim
