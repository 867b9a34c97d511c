#include "sim/report/ReportJson.h"

#include <cmath>
#include <istream>
#include <ostream>
#include <stdexcept>

#include "sim/report/RunMetrics.h"

namespace npusim {

namespace {

// Rounding to 6 decimals keeps ratios readable; nlohmann prints the shortest text
// that reads back as the same double, so 0.25 stays "0.25" and output is stable.
double rounded(double x) { return std::round(x * 1e6) / 1e6; }

nlohmann::ordered_json engine_row(const EngineStats& e, Cycles total) {
  nlohmann::ordered_json row;
  row["name"] = e.name;
  row["kind"] = e.kind;
  row["core"] = e.core;
  row["instructions"] = e.instructions;
  row["busy_cycles"] = e.busy;
  row["stall_cycles"] = e.stall;
  row["idle_cycles"] = idle_cycles(e, total);
  row["utilization"] = rounded(engine_utilization(e, total));
  return row;
}

nlohmann::ordered_json memory_row(const PortStats& p, Cycles total) {
  nlohmann::ordered_json row;
  row["name"] = p.name;
  row["kind"] = p.kind;
  row["capacity_bytes"] = p.capacity_bytes;
  row["peak_occupancy_bytes"] = p.peak_occupancy_bytes;
  row["bytes_read"] = p.bytes_read;
  row["bytes_written"] = p.bytes_written;
  row["bandwidth_bytes_per_cycle"] = rounded(p.bytes_per_cycle);
  row["busy_cycles"] = p.busy;
  row["bandwidth_utilization"] = rounded(bandwidth_utilization(p, total));
  return row;
}

void merge_extra(nlohmann::ordered_json& report, const nlohmann::json& extra) {
  if (extra.is_null()) return;
  if (!extra.is_object()) throw std::invalid_argument("ReportContext::extra must be a JSON object");
  for (const auto& [key, value] : extra.items()) {
    if (report.contains(key) || key == "instruction_rows")
      throw std::invalid_argument("ReportContext::extra redefines report key '" + key + "'");
    report[key] = value;
  }
}

}  // namespace

nlohmann::ordered_json report_summary(const RunStats& stats, const ReportContext& ctx,
                                      double clock_mhz, std::uint64_t instructions) {
  const Cycles total = stats.total_cycles;
  nlohmann::ordered_json report;
  report["schema_version"] = kReportSchemaVersion;
  report["npusim_version"] = ctx.npusim_version;
  report["config"] = file_name_only(ctx.config_name);
  report["trace"] = file_name_only(ctx.trace_name);
  report["mode"] = ctx.mode;
  report["clock_mhz"] = rounded(clock_mhz);
  report["total_cycles"] = total;
  report["time_us"] = rounded(cycles_to_us(total, clock_mhz));
  report["instructions"] = instructions;
  report["engines"] = nlohmann::ordered_json::array();
  for (const auto& e : stats.engines) report["engines"].push_back(engine_row(e, total));
  report["memories"] = nlohmann::ordered_json::array();
  report["dram_channels"] = nlohmann::ordered_json::array();
  for (const auto& p : stats.ports) {
    report["memories"].push_back(memory_row(p, total));
    if (p.kind == "dram_channel") report["dram_channels"].push_back(memory_row(p, total));
  }
  report["stats"] = stats.registered;
  report["stat_kinds"] = stats.registered_kinds;
  report["stat_units"] = stats.registered_catalogue;
  merge_extra(report, ctx.extra);
  return report;
}

void write_report_json(std::ostream& out, const nlohmann::ordered_json& summary,
                       std::istream& rows, bool has_rows) {
  std::string head = summary.dump(2);  // "{\n  ...\n}"
  head.resize(head.size() - 2);        // reopen the object: drop "\n}"
  out << head << ",\n  \"instruction_rows\": [";
  if (has_rows) out << rows.rdbuf() << "\n  ";
  out << "]\n}\n";
}

}  // namespace npusim
