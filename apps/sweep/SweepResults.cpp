#include "apps/sweep/SweepResults.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/engine/EngineRegistry.h"
#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/config/ConfigLoader.h"
#include "apps/regression/CsvTable.h"
#include "sim/report/QuotedNames.h"

namespace npusim {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Cells = PointCells;

const std::vector<std::string> kFixedMetrics = {"total_cycles", "time_us",   "macs",     "mac_utilization",
                                                "dram_bytes",   "dram_bw_utilization", "energy_pj", "edp",
                                                "area_mm2"};

// Whole numbers (cycles, bytes, MACs) in full; ratios to 6 significant digits.
std::string number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9.0e15) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{:.6g}", v);
}

// The run's useful MACs: the energy account's count (the same sum over engines), else, in runs
// without one, the macs column of instructions.csv; nullopt when the run kept neither.
std::optional<double> run_macs(const json& report, const std::string& run_dir) {
  if (report.contains("energy") && report.at("energy").contains("macs")) return report.at("energy").at("macs").get<double>();
  const std::string path = (fs::path(run_dir) / "instructions.csv").string();
  if (!fs::is_regular_file(path)) return std::nullopt;
  const CsvTable table = parse_csv(read_input_file(path), path);
  std::size_t column = table.header.size();
  for (std::size_t c = 0; c < table.header.size(); ++c)
    if (table.header[c] == "macs") column = c;
  double total = 0;
  if (column == table.header.size()) return total;
  for (const auto& row : table.rows) total += std::stod(row[column]);
  return total;
}

// Only these top-level keys of report.json feed results.csv: the per-instruction and per-layer
// rows, most of the file, are skipped while parsing (a sweep reads a report per point).
bool results_key(const std::string& key) {
  static const std::set<std::string> keys = {"total_cycles", "time_us", "dram_channels", "energy",     "area",
                                             "engines",      "memories", "stats",        "stat_kinds"};
  return keys.count(key) != 0;
}

// report.json's summary: the text before its "instruction_rows", which write_report_json puts
// last at the top level, closed again (the only top-level line that starts so; the rows'
// own lines are indented deeper). A report without them is kept whole.
std::string without_instruction_rows(std::string text) {
  const std::size_t rows = text.find(",\n  \"instruction_rows\": [");
  if (rows == std::string::npos) return text;
  text.resize(rows);
  return text + "\n}\n";
}

json read_report(const std::string& path) {
  return json::parse(without_instruction_rows(read_input_file(path)), [](int depth, json::parse_event_t event, json& parsed) {
    return !(depth == 1 && event == json::parse_event_t::key && !results_key(parsed.get<std::string>()));
  });
}

// The chip's peak MACs per cycle, as each core's engines state it, from the run's resolved config.
double chip_peak_macs_per_cycle(const json& config, const std::string& file) {
  const HardwareConfig hw = parse_hardware_config(config, file);
  double peak = 0;
  for (std::uint32_t i = 0; i < hw.chip.cores(); ++i) peak += engine_registry().peak_macs_per_cycle(hw.core_of(i));
  return peak;
}

// stat.<kind>.<counter>: each registered counter summed over the blocks of one kind
// ("stat.matrix.useful_macs" over every core's matrix unit, "stat.sparse_unit.rounds"
// over every sparse compute unit).
void add_registered_stats(const json& report, Cells& cells) {
  if (!report.contains("stats")) return;  // runs of npusim before registered stats
  const json kinds = report.value("stat_kinds", json::object());  // older reports: the name's last part
  std::map<std::string, double> sums;
  for (const auto& [owner, counters] : report.at("stats").items()) {
    const std::string kind = kinds.contains(owner) ? kinds.at(owner).get<std::string>()
                                                   : owner.substr(owner.rfind('.') + 1);
    for (const auto& [name, value] : counters.items()) sums["stat." + kind + "." + name] += value.get<double>();
  }
  for (const auto& [column, sum] : sums) cells[column] = number(sum);
}

// macs and mac_utilization against the chip's peak (from the point's resolved config).
void add_mac_cells(const json& report, const std::string& dir, Cells& cells) {
  const std::optional<double> macs = run_macs(report, dir);
  if (!macs) return;
  cells["macs"] = number(*macs);
  const std::string config = (fs::path(dir) / kConfigFile).string();
  const double peak = chip_peak_macs_per_cycle(json::parse(read_input_file(config)), config);
  const double cycles = report.at("total_cycles").get<double>();
  if (peak > 0 && cycles > 0) cells["mac_utilization"] = number(*macs / (peak * cycles));
}

void add_run_metrics(const std::string& dir, Cells& cells) {
  const json report = read_report((fs::path(dir) / "report.json").string());
  cells["total_cycles"] = report.at("total_cycles").dump();
  cells["time_us"] = number(report.at("time_us").get<double>());
  add_mac_cells(report, dir, cells);
  double dram_bytes = 0, dram_util = 0;
  const auto& channels = report.at("dram_channels");
  for (const auto& ch : channels) {
    dram_bytes += ch.at("bytes_read").get<double>() + ch.at("bytes_written").get<double>();
    dram_util += ch.at("bandwidth_utilization").get<double>();
  }
  cells["dram_bytes"] = number(dram_bytes);
  if (!channels.empty()) cells["dram_bw_utilization"] = number(dram_util / double(channels.size()));
  if (report.contains("energy")) {  // runs of npusim before the energy model have none
    const double pj = report.at("energy").at("total_pj").get<double>();
    cells["energy_pj"] = number(pj);
    cells["edp"] = number(pj * 1e-12 * report.at("time_us").get<double>() * 1e-6);  // J x s
    cells["area_mm2"] = number(report.at("area").at("total_mm2").get<double>());
  }
  for (const auto& e : report.at("engines"))
    cells["util." + e.at("name").get<std::string>()] = number(e.at("utilization").get<double>());
  for (const auto& m : report.at("memories"))
    if (m.at("kind") == "bus" || m.at("kind") == "link")
      cells["bw." + m.at("name").get<std::string>()] = number(m.at("bandwidth_utilization").get<double>());
  add_registered_stats(report, cells);
}

std::string one_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

}  // namespace

PointCells point_cells(const std::string& dir) {
  Cells cells;
  const fs::path report = fs::path(dir) / "report.json";
  const fs::path error = fs::path(dir) / kErrorFile;
  if (fs::is_regular_file(report)) {
    try {
      add_run_metrics(dir, cells);
      cells["status"] = "ok";
    } catch (const std::exception& e) {
      cells = {{"status", "failed"}, {"error", one_line(std::string("unreadable run outputs: ") + e.what())}};
    }
  } else if (fs::is_regular_file(error)) {
    cells["status"] = "failed";
    cells["error"] = one_line(read_input_file(error.string()));
  } else {
    cells["status"] = "failed";
    cells["error"] = "not run (sweep interrupted?)";
  }
  return cells;
}

namespace {

const std::vector<std::string> kPointColumns = {"index", "point", "status", "error"};

bool is_chip_column(const std::string& column) {
  return column.rfind("util.", 0) == 0 || column.rfind("bw.", 0) == 0 || column.rfind("stat.", 0) == 0;
}

}  // namespace

bool is_results_column(const std::string& name) {
  for (const auto* list : {&kPointColumns, &kFixedMetrics})
    if (std::find(list->begin(), list->end(), name) != list->end()) return true;
  return is_chip_column(name);
}

std::string results_csv(const SweepSpec& spec, const std::vector<SweepPoint>& points, const std::string& points_dir,
                        const std::vector<std::optional<PointCells>>* read) {
  std::vector<Cells> rows;
  std::set<std::string> extra_columns;  // util.* and bw.*, which depend on the chip
  for (std::size_t i = 0; i < points.size(); ++i) {
    const bool known = read && (*read)[i];
    rows.push_back(known ? *(*read)[i] : point_cells((fs::path(points_dir) / points[i].name).string()));
    for (const auto& [column, value] : rows.back())
      if (is_chip_column(column)) extra_columns.insert(column);
  }
  std::vector<std::string> header = {"index", "point"};
  for (const auto& axis : spec.axes) header.push_back(axis.name);
  header.insert(header.end(), {"status", "error"});
  header.insert(header.end(), kFixedMetrics.begin(), kFixedMetrics.end());
  header.insert(header.end(), extra_columns.begin(), extra_columns.end());

  QuotedNames quote;
  std::string out;
  for (std::size_t c = 0; c < header.size(); ++c) out += (c ? "," : "") + quote.csv(header[c]);
  out += "\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    Cells& cells = rows[i];
    cells["index"] = std::to_string(points[i].index);
    cells["point"] = points[i].name;
    for (std::size_t a = 0; a < spec.axes.size(); ++a) cells[spec.axes[a].name] = value_text(points[i].values[a]);
    for (std::size_t c = 0; c < header.size(); ++c) {
      auto it = cells.find(header[c]);
      out += (c ? "," : "") + (it == cells.end() ? std::string() : quote.csv(it->second));
    }
    out += "\n";
  }
  return out;
}

}  // namespace npusim
