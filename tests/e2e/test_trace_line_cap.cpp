// Trace lines are capped at kMaxTraceLineBytes (issue 28). A 300 MB string field used to take
// 1.2 GB and 25 s before "unknown field", and a 300 MB array line under a memory cap aborted
// leaving a staging folder. Now any line past 64 MiB is exit 2 at once, naming file and line.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <filesystem>
#include <fstream>

#include "e2e/NpusimProcess.h"
#include "sim/trace/TraceReader.h"

namespace {

// 64 KiB of a string field's characters, or of an array's elements.
std::string chunk_of(bool array) {
  if (!array) return std::string(1 << 16, 'a');
  std::string elements;
  for (int i = 0; i < (1 << 15); ++i) elements += "0,";
  return elements;
}

// A header and one instruction line of about `body` bytes (by default kMaxTraceLineBytes + 1 MiB):
// a string field, or an array of zeros.
std::string write_long_line_trace(const std::string& dir, bool array,
                                  std::size_t body = npusim::kMaxTraceLineBytes + (std::size_t(1) << 20)) {
  const std::string path = dir + (array ? "/array.jsonl" : "/string.jsonl");
  std::ofstream f(path, std::ios::binary);
  f << R"({"format":"npusim-trace","version":1})" << "\n";
  f << (array ? R"({"id":0,"op":"load","inputs":[)" : R"({"id":0,"op":"load","note":")");
  const std::string chunk = chunk_of(array);
  for (std::size_t written = 0; written < body; written += chunk.size()) f << chunk;
  f << (array ? "0]}" : "\"}") << "\n";
  REQUIRE(f.good());
  return path;
}

// A run of `trace`, under a 1 GiB address-space cap when `capped` (left out under the sanitizers,
// whose shadow memory needs more address space: those tests carry [rss] and [memory-cap]).
NpusimResult run_trace(const std::string& trace, const std::string& out, bool capped) {
  NpusimLaunch launch;
  if (capped)
    launch.in_child = [] {
      const rlimit limit{rlim_t(1) << 30, rlim_t(1) << 30};
      setrlimit(RLIMIT_AS, &limit);
    };
  return run_npusim({"run", "--quiet", "--trace", trace, "--out", out}, launch);
}

// The refusal every long line gets, one line on stderr and nothing left in `dir` but the trace.
void check_long_line_refused(const std::string& dir, bool array, bool capped) {
  const std::string trace = write_long_line_trace(dir, array);
  INFO(trace);
  const std::string expected = "error: " + trace + ": line 2: line longer than 64 MiB";
  const NpusimResult checked = run_npusim({"validate", trace});
  CHECK(checked.status == 2);
  CHECK_THAT(checked.output, Catch::StartsWith(expected));
  const NpusimResult ran = run_trace(trace, dir + "/run", capped);
  CHECK(ran.status == 2);
  CHECK_THAT(ran.output, Catch::StartsWith(expected));
  CHECK(ran.output.find('\n') == ran.output.size() - 1);
  if (capped) CHECK(ran.peak_rss_kib < 256 * 1024);  // the line is never held whole
  std::filesystem::remove(trace);
  CHECK(std::filesystem::is_empty(dir));  // no run folder, no staging folder
}

// Under the byte cap, 60 MiB of "0," is 31 million values: parsed whole they took 1.4 GB, and
// under a 1 GiB cap the run died of std::bad_alloc in the error path (SIGABRT), leaving its
// staging folder. A line is refused once it holds more than kMaxTraceLineValues values.
void check_many_values_refused(const std::string& dir, bool capped) {
  const std::string trace = write_long_line_trace(dir, true, std::size_t(60) << 20);
  const NpusimResult ran = run_trace(trace, dir + "/run", capped);
  INFO(ran.output.substr(0, 2000));
  CHECK(ran.status == 2);
  CHECK_THAT(ran.output, Catch::StartsWith("error: " + trace + ": line 2: more than 1048576 JSON values"));
  CHECK(ran.output.find('\n') == ran.output.size() - 1);
  std::filesystem::remove(trace);
  CHECK(std::filesystem::is_empty(dir));
}

}  // namespace

TEST_CASE("a trace line longer than 64 MiB is exit 2 at once, naming the line", "[e2e][trace][heavy]") {
  const std::string dir = scratch_dir("long-line");
  for (bool array : {false, true}) check_long_line_refused(dir, array, false);
}

TEST_CASE("a trace line of more than 2^20 JSON values is exit 2 at once", "[e2e][trace]") {
  check_many_values_refused(scratch_dir("many-values"), false);
}

TEST_CASE("long or crowded trace lines are exit 2 under a 1 GiB memory cap", "[e2e][trace][rss][memory-cap][heavy]") {
  const std::string dir = scratch_dir("capped-lines");
  for (bool array : {false, true}) check_long_line_refused(dir, array, true);
  check_many_values_refused(dir, true);
}
