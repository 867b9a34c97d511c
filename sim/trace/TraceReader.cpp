#include "sim/trace/TraceReader.h"

#include <filesystem>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/common/JsonValueCount.h"
#include "sim/common/StrictJson.h"
#include "sim/trace/InstructionParser.h"

namespace npusim {

namespace {

bool is_blank(const std::string& text) { return text.find_first_not_of(" \t\r\n") == std::string::npos; }

}  // namespace

TraceReader::TraceReader(const std::string& path, const HardwareConfig& cfg)
    : path_(path), cfg_(cfg), in_(open_input_file(path)), lines_(in_, path, kMaxTraceLineBytes) {
  nlohmann::json first;
  if (!next_line(first))
    throw InputError(path, "line 1", "empty trace: missing header line {\"format\":\"npusim-trace\",\"version\":1}");
  std::string dir = std::filesystem::path(path).parent_path().string();
  header_ = parse_trace_header(first, cfg_, TracePlace{path_, lines_.line_number()}, dir);
}

bool TraceReader::next_line(nlohmann::json& out) {
  while (lines_.next(text_)) {
    if (is_blank(text_)) continue;
    // Valid JSON of at most kMaxTraceLineValues bytes holds at most that many values: only a
    // longer line needs counting.
    if (text_.size() > kMaxTraceLineValues && json_values_at_most(text_) > kMaxTraceLineValues)
      throw InputError(path_, fmt::format("line {}", lines_.line_number()),
                       fmt::format("more than {} JSON values in one line; npusim reads no more than that",
                                   kMaxTraceLineValues));
    out = parse_strict_json<nlohmann::json>(text_, path_, lines_.line_number());
    return true;
  }
  return false;
}

bool TraceReader::next(Instruction& out) {
  nlohmann::json line;
  if (!next_line(line)) return false;
  TracePlace place{path_, lines_.line_number()};
  Instruction ins = parse_instruction(line, cfg_, place);
  check_id_and_deps(ins, place);
  last_id_ = ins.id;
  seen_.add(ins.id);
  ++count_;
  out = std::move(ins);
  return true;
}

void TraceReader::check_id_and_deps(const Instruction& ins, const TracePlace& place) const {
  if (last_id_ && ins.id <= *last_id_)
    place.fail("id", fmt::format("id {} is not greater than the previous id {}; ids must increase strictly down the file",
                                 ins.id, *last_id_));
  for (std::size_t i = 0; i < ins.deps.size(); ++i) {
    std::uint64_t producer = ins.deps[i].producer;
    std::string field = fmt::format("deps[{}]", i);
    if (producer >= ins.id)
      place.fail(field, fmt::format("dependency on id {} of instruction {}: forward dependency: would form a cycle; "
                                    "dependencies must point to earlier instructions",
                                    producer, ins.id));
    if (!seen_.contains(producer))
      place.fail(field, fmt::format("dependency on id {}, which does not exist (no earlier line has that id)", producer));
  }
}

std::uint64_t validate_trace(const std::string& path, const HardwareConfig& cfg) {
  TraceReader reader(path, cfg);
  Instruction ins;
  while (reader.next(ins)) {
  }
  return reader.instructions_read();
}

nlohmann::json first_trace_line(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  LineReader lines(in, path, kMaxTraceLineBytes);
  std::string text;
  while (lines.next(text))
    if (!is_blank(text)) return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return nlohmann::json(nlohmann::json::value_t::discarded);
}

bool looks_like_trace(const std::string& path) {
  if (std::filesystem::path(path).extension() == ".jsonl") return true;
  if (!input_file_problem(path).empty()) return false;
  try {
    // A header (even a wrong one) or an instruction where the header belongs: the
    // trace reader gives the better message for both.
    const nlohmann::json first = first_trace_line(path);
    return first.is_object() && (first.contains("format") || first.contains("op"));
  } catch (const InputError&) {
    return true;  // a first line past the cap: the trace reader refuses it at once
  }
}

}  // namespace npusim
