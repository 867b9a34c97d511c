#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/report/ReportContext.h"
#include "sim/report/RunStats.h"

namespace npusim::test {

namespace fs = std::filesystem;

// A directory private to this test process (ctest runs test cases in parallel),
// removed when the test ends.
struct ScratchDir {
  fs::path path;
  explicit ScratchDir(const std::string& tag)
      : path(fs::temp_directory_path() / fmt::format("npusim-report-{}-{}", ::getpid(), tag)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

constexpr double kClockMhz = 500.0;

// Three engines (one over-subscribed so idle clamps to zero, one unused) and
// three ports (a DRAM channel, a scratchpad, a bus with no bandwidth figure).
inline RunStats sample_stats() {
  RunStats s;
  s.total_cycles = 1000;
  s.clock_mhz = kClockMhz;
  s.instructions = 6;
  s.engines = {
      {"core0.load", "load", 0, 3, 400, 100, 0},
      {"core0.matrix", "matrix", 0, 3, 700, 400, 12345},
      {"core1.vector", "vector", 1, 0, 0, 0, 0},
  };
  s.ports = {
      {"dram.ch0", "dram_channel", 32.0, 6400, 3200, 300, 0, 0},
      {"core0.nram", "scratchpad", 64.0, 1000, 2000, 50, 65536, 4096},
      {"core0.matrix.broadcast_bus", "bus", 0.0, 10, 0, 5, 0, 0},
  };
  return s;
}

// Alternates load and matrix instructions; one op name needs CSV and JSON quoting.
inline std::vector<InstructionRecord> sample_records() {
  std::vector<InstructionRecord> records;
  for (std::uint64_t i = 0; i < 6; ++i) {
    InstructionRecord r;
    r.id = i;
    r.op = i == 3 ? "odd,\"op\"" : (i % 2 == 0 ? "load_tile" : "matmul");
    r.engine = i % 2 == 0 ? "core0.load" : "core0.matrix";
    r.core = 0;
    r.dispatch = 10 * i;
    r.start = 10 * i + 3;
    r.end = 10 * i + 3 + 7 * (i + 1);
    r.stall = i;
    r.bytes = 256 * (i + 1);
    r.macs = i % 2 == 0 ? 0 : 1000 * i;
    records.push_back(r);
  }
  return records;
}

inline ReportContext sample_context() {
  ReportContext ctx;
  ctx.config_name = "/home/someone/configs/small.json";
  ctx.trace_name = "/home/someone/traces/conv.trace.json";
  ctx.mode = "timing";
  ctx.npusim_version = "9.9.9";
  return ctx;
}

}  // namespace npusim::test
