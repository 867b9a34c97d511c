#include "sim/report/TimelineWriter.h"

#include <cctype>
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iterator>
#include <set>
#include <stdexcept>
#include <system_error>

#include <fmt/compile.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/common/InputError.h"
#include "sim/report/BlockWrites.h"
#include "sim/report/RunMetrics.h"
#include "sim/common/Interruption.h"

namespace npusim {

namespace {

constexpr int kProcessId = 1;

// Metadata events ("ph":"M") name the process and the tracks and fix track order.
std::string name_event(const char* what, std::size_t tid, const std::string& name) {
  nlohmann::ordered_json e;
  e["name"] = what;
  e["ph"] = "M";
  e["pid"] = kProcessId;
  e["tid"] = tid;
  e["args"]["name"] = name;
  return e.dump();
}

// Track order: names compared with digit runs as numbers, so core2 comes before
// core10 and unit2 before unit10.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t i1 = i, j1 = j;
      while (i1 < a.size() && std::isdigit(static_cast<unsigned char>(a[i1]))) ++i1;
      while (j1 < b.size() && std::isdigit(static_cast<unsigned char>(b[j1]))) ++j1;
      const std::string x = a.substr(i, i1 - i), y = b.substr(j, j1 - j);
      const std::string xs = x.substr(std::min(x.find_first_not_of('0'), x.size()));
      const std::string ys = y.substr(std::min(y.find_first_not_of('0'), y.size()));
      if (xs.size() != ys.size()) return xs.size() < ys.size();
      if (xs != ys) return xs < ys;
      if (x.size() != y.size()) return x.size() < y.size();  // "01" and "1": a fixed order
      i = i1;
      j = j1;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

std::string sort_event(std::size_t tid) {
  nlohmann::ordered_json e;
  e["name"] = "thread_sort_index";
  e["ph"] = "M";
  e["pid"] = kProcessId;
  e["tid"] = tid;
  e["args"]["sort_index"] = tid;
  return e.dump();
}

}  // namespace

TimelineWriter::TimelineWriter(std::string temp_path, double clock_mhz)
    : temp_path_(std::move(temp_path)), clock_mhz_(clock_mhz) {
  events_.open(temp_path_, std::ios::binary | std::ios::trunc);
  if (!events_) fail_writing(temp_path_, "cannot create the file");
}

TimelineWriter::~TimelineWriter() {
  if (finished_) return;
  line_.clear();
  events_.close();
  std::error_code ignored;
  std::filesystem::remove(temp_path_, ignored);
}

// Looked up before inserting: emplace would build (and free) a node on every event.
std::size_t TimelineWriter::seen_index(const std::string& engine) {
  if (auto it = seen_.find(engine); it != seen_.end()) return it->second;
  seen_order_.push_back(engine);
  return seen_.emplace(engine, seen_order_.size() - 1).first->second;
}

// Formatted as "{:.6f}" in place by each event's compiled format string.
double TimelineWriter::microseconds(Cycles c) const { return cycles_to_us(c, clock_mhz_); }

// Events are formatted with compiled format strings into one buffer, written out in blocks
// (BlockWrites.h).
void TimelineWriter::write_line() { write_full_block(events_, line_); }

void TimelineWriter::add_complete(const InstructionRecord& r) {
  const Cycles duration = r.end >= r.start ? r.end - r.start : 0;
  const std::string state = r.state.empty() ? "" : ",\"state\":" + names_.json(r.state);
  // Overlapping instructions of one engine go on tracks of their own: slices on a track must nest.
  const std::size_t track = r.lane == 0 ? seen_index(r.engine) : seen_index(r.engine + ".lane" + std::to_string(r.lane));
  fmt::format_to(std::back_inserter(line_),
                 FMT_COMPILE("{}\t\"ph\":\"X\",\"name\":{},\"ts\":{:.6f},\"dur\":{:.6f},"
                             "\"args\":{{\"id\":{},\"stall\":{}{}}}}}\n"),
                 track, names_.json(r.op), microseconds(r.start),
                 microseconds(duration), r.id, r.stall, state);
  write_line();
}

void TimelineWriter::add_span(const std::string& track, const std::string& name, Cycles start, Cycles end) {
  if (end <= start) return;  // nothing to show, and no track for it
  fmt::format_to(std::back_inserter(line_), FMT_COMPILE("{}\t\"ph\":\"X\",\"name\":{},\"ts\":{:.6f},\"dur\":{:.6f}}}\n"),
                 seen_index(track), names_.json(name), microseconds(start), microseconds(end - start));
  write_line();
}

// Instants are producer flags named "end flag #id" or "stage k/n #id", each name new.
void TimelineWriter::add_instant(const std::string& engine, const std::string& name, Cycles at) {
  fmt::format_to(std::back_inserter(line_), FMT_COMPILE("{}\t\"ph\":\"i\",\"s\":\"t\",\"name\":{},\"ts\":{:.6f}}}\n"),
                 seen_index(engine), QuotedNames::json_uncached(name), microseconds(at));
  write_line();
}

std::vector<std::size_t> TimelineWriter::track_ids(
    const std::vector<std::string>& sorted_engines) const {
  std::vector<std::size_t> ids(seen_order_.size());
  for (std::size_t i = 0; i < seen_order_.size(); ++i) {
    auto pos = std::lower_bound(sorted_engines.begin(), sorted_engines.end(), seen_order_[i], natural_less);
    ids[i] = static_cast<std::size_t>(pos - sorted_engines.begin()) + 1;  // tid 0 is unused
  }
  return ids;
}

// Each streamed line "<first-seen index>\t<rest of the event>" becomes ",\n{pid, tid, rest}",
// gathered in blocks like the streamed events.
void TimelineWriter::copy_events(std::ofstream& out, const std::vector<std::size_t>& tid) {
  std::ifstream events(temp_path_, std::ios::binary);
  std::string line;
  while (std::getline(events, line)) {
    const std::size_t tab = line.find('\t');
    std::size_t index = 0;
    std::from_chars(line.data(), line.data() + tab, index);
    fmt::format_to(std::back_inserter(line_), FMT_COMPILE(",\n{{\"pid\":{},\"tid\":{},{}"), kProcessId,
                   tid.at(index), std::string_view(line).substr(tab + 1));
    write_full_block(out, line_);
  }
  write_block(out, line_);
}

void TimelineWriter::finish(const std::string& path, const std::vector<EngineStats>& engines) {
  write_block(events_, line_);
  events_.close();
  if (!events_) fail_writing(temp_path_);

  std::set<std::string, decltype(&natural_less)> names(seen_order_.begin(), seen_order_.end(), natural_less);
  for (const auto& e : engines) names.insert(e.name);
  const std::vector<std::string> sorted(names.begin(), names.end());
  const std::vector<std::size_t> tid = track_ids(sorted);

  std::ofstream out;
  {
    CreationGuard guard;
    out.open(path, std::ios::binary | std::ios::trunc);
  }
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  out << name_event("process_name", 0, "npusim");
  for (std::size_t i = 0; i < sorted.size(); ++i)
    out << ",\n" << name_event("thread_name", i + 1, sorted[i]) << ",\n" << sort_event(i + 1);

  copy_events(out, tid);
  out << "\n]}\n";
  out.close();
  if (!out) fail_writing(path);
  std::filesystem::remove(temp_path_);
  finished_ = true;
}

}  // namespace npusim
