#include "sim/report/RunRows.h"

#include <stdexcept>

#include <fmt/format.h>

namespace npusim {

const char* row_detail_name(RowDetail d) {
  switch (d) {
    case RowDetail::none: return "none";
    case RowDetail::layers: return "layers";
    case RowDetail::all: return "all";
  }
  return "?";
}

RowDetail parse_row_detail(const std::string& name) {
  for (RowDetail d : {RowDetail::none, RowDetail::layers, RowDetail::all})
    if (name == row_detail_name(d)) return d;
  throw std::invalid_argument("unknown row detail '" + name + "' (none, layers or all)");
}

nlohmann::json rows_report(const RowsPolicy& policy, std::uint64_t instructions) {
  if (policy.keeps_instructions(instructions) && policy.per_layer()) return nlohmann::json::object();
  const RowDetail written = policy.asked ? *policy.asked : RowDetail::layers;
  nlohmann::json j = {{"written", row_detail_name(written)},
                      {"asked", policy.asked ? row_detail_name(*policy.asked) : "default"},
                      {"instruction_limit", policy.limit}};
  j["reason"] = policy.asked ? std::string("--rows ") + row_detail_name(*policy.asked)
                             : fmt::format("{} instructions, more than the {} above which per-instruction rows "
                                           "are left out unless asked for with --rows all",
                                           instructions, policy.limit);
  return j;
}

std::string rows_summary_line(const nlohmann::json& rows) {
  if (rows.empty()) return {};
  const std::string written = rows.at("written").get<std::string>();
  const std::string what = written == "layers" ? "per-layer rows only: no instructions.csv, no instruction_rows"
                                               : "no per-instruction or per-layer rows";
  return fmt::format("  rows          {} ({})\n", what, rows.at("reason").get<std::string>());
}

}  // namespace npusim
