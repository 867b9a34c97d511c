#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace npusim {

// How much of a run is written row by row (`npusim run --rows`):
//   all    - every instruction (instructions.csv, report.json "instruction_rows") and every layer
//   layers - the workload's per-layer rows only; no instructions.csv, "instruction_rows" empty
//   none   - neither: the totals, engines, memories and sections only
// The timeline is written in every mode.
enum class RowDetail { none, layers, all };

const char* row_detail_name(RowDetail d);
// The detail named `name` ("none", "layers", "all"); throws std::invalid_argument otherwise.
RowDetail parse_row_detail(const std::string& name);

// Runs of more instructions than this keep no per-instruction rows unless asked (--rows all).
// The bundled CNNs, BERT and ViT stay far under it on every shipped config (ViT-B/16 on 16 cores,
// the largest, about 27,000), so their folders are as before; the LLM prefills and the 70B
// decode are above it (docs/outputs.md). Above it the rows cost more host time than
// they are worth by default (writing them was 13 % of the 7B prefill's 2.4 M instructions) and
// make files of tens of MB (about 65 bytes a CSV row, 170 a JSON row).
inline constexpr std::uint64_t kInstructionRowLimit = 200000;

struct RowsPolicy {
  std::optional<RowDetail> asked;  // empty: all up to `limit` instructions, else layers
  std::uint64_t limit = kInstructionRowLimit;

  bool per_layer() const { return asked != RowDetail::none; }
  // Whether a run's per-instruction rows are kept once it has executed `instructions`.
  bool keeps_instructions(std::uint64_t instructions) const {
    return asked ? *asked == RowDetail::all : instructions <= limit;
  }
};

// report.json "rows" when a run left rows out ({} when it wrote them all, which the report
// then does not mention): what was written, what was asked, and why.
nlohmann::json rows_report(const RowsPolicy& policy, std::uint64_t instructions);
// The summary's line for the same, empty when nothing was left out.
std::string rows_summary_line(const nlohmann::json& rows);

}  // namespace npusim
