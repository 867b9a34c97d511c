#pragma once
#include <cstdint>
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "sim/report/ReportContext.h"
#include "sim/report/RunStats.h"

namespace npusim {

constexpr int kReportSchemaVersion = 1;

// Everything in report.json except "instruction_rows", in a fixed key order.
// Non-integer values are rounded to 6 decimal places.
nlohmann::ordered_json report_summary(const RunStats& stats, const ReportContext& ctx,
                                      double clock_mhz, std::uint64_t instructions);

// Writes report.json: the summary, then "instruction_rows" copied verbatim from
// `rows` (already-formatted row objects, each preceded by its separator), so the
// rows are never held in memory.
void write_report_json(std::ostream& out, const nlohmann::ordered_json& summary,
                       std::istream& rows, bool has_rows);

}  // namespace npusim
