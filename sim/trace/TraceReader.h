#pragma once
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/common/LineReader.h"
#include "sim/config/HardwareConfig.h"
#include "sim/trace/IdRuns.h"
#include "sim/trace/Instruction.h"
#include "sim/trace/TraceHeader.h"

namespace npusim {

// No trace line may be longer than this (docs/trace-format.md): a longer one is refused as soon
// as its first kMaxTraceLineBytes + 1 bytes are read, never held whole.
constexpr std::size_t kMaxTraceLineBytes = std::size_t(64) << 20;
// Nor hold more JSON values than this (a compiled header holds thousands): a line of tiny values
// under the byte cap would otherwise take gigabytes as a parsed document.
constexpr std::size_t kMaxTraceLineValues = std::size_t(1) << 20;

// Streams a JSON Lines trace (docs/trace-format.md) one instruction at a time,
// so memory stays flat however long the trace is. Every line is checked against
// the config as it is read; any problem is an InputError naming the line and field.
class TraceReader {
 public:
  // Opens the file and reads and checks the header line.
  TraceReader(const std::string& path, const HardwareConfig& cfg);
  // lines_ reads from in_: a moved reader would read through a dangling stream.
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;

  const TraceHeader& header() const { return header_; }
  // Fills `out` with the next instruction; false at the end of the file.
  bool next(Instruction& out);
  std::uint64_t instructions_read() const { return count_; }

 private:
  bool next_line(nlohmann::json& out);
  void check_id_and_deps(const Instruction& ins, const TracePlace& place) const;

  std::string path_;
  HardwareConfig cfg_;
  std::ifstream in_;
  LineReader lines_;
  std::string text_;  // reused line buffer
  std::uint64_t count_ = 0;
  TraceHeader header_;
  std::optional<std::uint64_t> last_id_;
  IdRuns seen_;
};

// Reads the whole trace, checking every line; returns the instruction count.
std::uint64_t validate_trace(const std::string& path, const HardwareConfig& cfg);

// The first non-blank line of `path` as JSON (discarded when it is none, or not JSON);
// an InputError when that line is longer than kMaxTraceLineBytes. Reads no further.
nlohmann::json first_trace_line(const std::string& path);

// True for a .jsonl file, or when the first non-blank line is a JSON object with a
// "format" or an "op" key (a header, maybe a wrong one, or a headerless trace), or a
// line longer than kMaxTraceLineBytes (which the trace reader then refuses at once).
// Never throws; lets `npusim validate FILE` tell a trace from a config.
bool looks_like_trace(const std::string& path);

}  // namespace npusim
