#include "sim/report/Summary.h"

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/common/ByteSize.h"
#include "sim/report/RunRows.h"
#include "sim/report/RunMetrics.h"

namespace npusim {

namespace {

using Row = std::vector<std::string>;

std::string percent(double ratio) { return fmt::format("{:.1f}%", ratio * 100.0); }

// Columns sized to their widest cell; the first `text_columns` (names, kinds) are
// left-aligned and the rest (numbers) right-aligned so digits line up.
void print_table(std::ostream& os, const std::vector<Row>& rows, std::size_t text_columns) {
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const Row& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  for (const Row& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c)
      line += c < text_columns ? fmt::format("  {:<{}}", row[c], width[c])
                               : fmt::format("  {:>{}}", row[c], width[c]);
    os << line << '\n';
  }
}

std::vector<Row> engine_rows(const RunStats& stats) {
  std::vector<Row> rows = {{"engine", "instr", "busy", "stall", "idle", "util"}};
  for (const auto& e : stats.engines)
    rows.push_back({e.name, std::to_string(e.instructions), std::to_string(e.busy),
                    std::to_string(e.stall), std::to_string(idle_cycles(e, stats.total_cycles)),
                    percent(engine_utilization(e, stats.total_cycles))});
  return rows;
}

std::vector<Row> port_rows(const RunStats& stats) {
  std::vector<Row> rows = {{"memory/port", "kind", "bytes read", "bytes written", "bw util",
                            "peak occupancy", "capacity"}};
  for (const auto& p : stats.ports)
    rows.push_back({p.name, p.kind, byte_size_text(p.bytes_read), byte_size_text(p.bytes_written),
                    percent(bandwidth_utilization(p, stats.total_cycles)), byte_size_text(p.peak_occupancy_bytes),
                    p.capacity_bytes == 0 ? "-" : byte_size_text(p.capacity_bytes)});
  return rows;
}

}  // namespace

void print_summary(std::ostream& os, const RunStats& stats, const ReportContext& ctx) {
  os << fmt::format("npusim {} ({} mode): config {}, trace {}\n", ctx.npusim_version, ctx.mode,
                    file_name_only(ctx.config_name), file_name_only(ctx.trace_name));
  os << fmt::format("  total cycles  {}\n", stats.total_cycles);
  os << fmt::format("  time          {:.3f} us at {} MHz\n",
                    cycles_to_us(stats.total_cycles, stats.clock_mhz), stats.clock_mhz);
  os << fmt::format("  instructions  {}\n", stats.instructions);
  if (ctx.extra.is_object() && ctx.extra.contains("rows")) os << rows_summary_line(ctx.extra.at("rows"));
  if (stats.energy.priced) {
    const EnergySplit e = stats.energy.total();
    const std::uint64_t macs = run_macs(stats);
    os << fmt::format("  energy        {:.3f} uJ (dynamic {:.3f}, static {:.3f}){}\n", e.total_pj() * 1e-6,
                      e.dynamic_pj * 1e-6, e.static_pj * 1e-6,
                      macs ? fmt::format(", {:.3f} pJ/MAC", e.total_pj() / double(macs)) : "");
    os << fmt::format("  area          {:.3f} mm2 at {} nm ({})\n", stats.energy.area_mm2(), stats.energy.node_nm,
                      stats.energy.table_file);
  }
  os << '\n';
  print_table(os, engine_rows(stats), 1);
  if (stats.ports.empty()) return;
  os << '\n';
  print_table(os, port_rows(stats), 2);
}

}  // namespace npusim
