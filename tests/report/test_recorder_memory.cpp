#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>

#include "ReportFixture.h"
#include "sim/report/OutputDirectory.h"
#include "sim/report/RunRecorder.h"

using namespace npusim;
using namespace npusim::test;

namespace {

// Resident set size from /proc/self/statm (second field, in pages).
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size_pages = 0, resident_pages = 0;
  statm >> size_pages >> resident_pages;
  return resident_pages * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

InstructionRecord nth_record(std::uint64_t i) {
  InstructionRecord r;
  r.id = i;
  r.op = i % 3 == 0 ? "matmul" : "vector_add";
  r.engine = fmt::format("core{}.{}", i % 4, i % 3 == 0 ? "matrix" : "vector");
  r.core = static_cast<std::uint32_t>(i % 4);
  r.dispatch = 5 * i;
  r.start = 5 * i + 2;
  r.end = 5 * i + 9;
  r.bytes = 4096;
  r.macs = i % 3 == 0 ? 65536 : 0;
  return r;
}

}  // namespace

TEST_CASE("recording 500k instructions keeps resident memory flat", "[report][rss]") {
  constexpr std::uint64_t kWarmup = 20000;
  constexpr std::uint64_t kTotal = 500000;
  // Keeping the rows in memory would cost well over 50 MB; streaming costs buffers.
  constexpr std::size_t kAllowedGrowth = 16u << 20;

  ScratchDir scratch("memory");
  OutputDirectory out((scratch.path / "run").string());
  RowsPolicy every_row;  // --rows all: past the default limit of 200,000 rows
  every_row.asked = RowDetail::all;
  RunRecorder recorder(out, 1000.0, every_row);
  for (std::uint64_t i = 0; i < kWarmup; ++i) recorder.record(nth_record(i));
  const std::size_t baseline = resident_bytes();
  for (std::uint64_t i = kWarmup; i < kTotal; ++i) recorder.record(nth_record(i));
  const std::size_t after_recording = resident_bytes();

  RunStats stats;
  stats.total_cycles = 5 * kTotal + 9;
  stats.instructions = kTotal;
  recorder.finish(stats, sample_context());
  const std::size_t after_finish = resident_bytes();

  INFO("baseline " << baseline << ", after recording " << after_recording << ", after finish "
                   << after_finish);
  CHECK(after_recording < baseline + kAllowedGrowth);
  CHECK(after_finish < baseline + kAllowedGrowth);

  std::ifstream csv(out.file("instructions.csv"), std::ios::binary);
  const auto lines = std::count(std::istreambuf_iterator<char>(csv),
                                std::istreambuf_iterator<char>(), '\n');
  CHECK(lines == static_cast<long>(kTotal + 1));
}
