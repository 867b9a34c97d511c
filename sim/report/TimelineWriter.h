#pragma once
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "sim/common/Cycles.h"
#include "sim/report/QuotedNames.h"
#include "sim/report/RunStats.h"

namespace npusim {

// Streams Chrome Trace Event records to a temporary file while the run goes on,
// and assembles timeline.json at the end. Track ids must follow the sorted engine
// names, which are only all known at the end, so each streamed line starts with
// the engine's first-seen index and is given its track id when assembled.
class TimelineWriter {
 public:
  TimelineWriter(std::string temp_path, double clock_mhz);
  ~TimelineWriter();  // removes the temporary file if finish() never ran
  TimelineWriter(const TimelineWriter&) = delete;
  TimelineWriter& operator=(const TimelineWriter&) = delete;

  void add_complete(const InstructionRecord& r);
  void add_instant(const std::string& engine, const std::string& name, Cycles at);
  // A busy span of a block inside an engine, on the block's own track (none when empty).
  void add_span(const std::string& track, const std::string& name, Cycles start, Cycles end);
  // Writes the timeline to `path` with one track per engine: those in `engines`
  // plus any seen in events. Removes the temporary file.
  void finish(const std::string& path, const std::vector<EngineStats>& engines);

 private:
  std::size_t seen_index(const std::string& engine);
  std::vector<std::size_t> track_ids(const std::vector<std::string>& sorted_engines) const;
  double microseconds(Cycles c) const;
  void write_line();
  void copy_events(std::ofstream& out, const std::vector<std::size_t>& tid);

  std::string temp_path_;
  double clock_mhz_;
  std::ofstream events_;
  fmt::memory_buffer line_;  // events formatted, not yet written
  QuotedNames names_;
  std::unordered_map<std::string, std::size_t> seen_;
  std::vector<std::string> seen_order_;
  bool finished_ = false;
};

}  // namespace npusim
