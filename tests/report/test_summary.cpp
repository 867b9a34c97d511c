#include <catch2/catch.hpp>

#include <sstream>

#include "ReportFixture.h"
#include "sim/report/Summary.h"

using namespace npusim;
using namespace npusim::test;

namespace {

std::vector<std::string> lines_starting_with(const std::vector<std::string>& lines,
                                             const std::vector<std::string>& names) {
  std::vector<std::string> found;
  for (const auto& line : lines)
    for (const auto& name : names)
      if (line.rfind("  " + name + " ", 0) == 0) found.push_back(line);
  return found;
}

}  // namespace

TEST_CASE("summary shows totals and one aligned row per engine and port", "[report]") {
  const RunStats stats = sample_stats();
  std::ostringstream os;
  print_summary(os, stats, sample_context());
  const std::string text = os.str();
  const auto lines = lines_of(text);

  CHECK(text.find("small.json") != std::string::npos);
  CHECK(text.find("/home/someone") == std::string::npos);  // file names only
  CHECK(text.find(fmt::format("total cycles  {}", stats.total_cycles)) != std::string::npos);
  CHECK(text.find(fmt::format("{:.3f} us", stats.total_cycles / stats.clock_mhz)) !=
        std::string::npos);

  std::vector<std::string> engine_names = {"engine"};
  for (const auto& e : stats.engines) engine_names.push_back(e.name);
  const auto engine_lines = lines_starting_with(lines, engine_names);
  REQUIRE(engine_lines.size() == stats.engines.size() + 1);
  for (const auto& line : engine_lines) CHECK(line.size() == engine_lines[0].size());
  // core0.load: busy 400 of 1000 cycles.
  CHECK(engine_lines[1].find(fmt::format("{:.1f}%", 100.0 * 400 / 1000)) != std::string::npos);

  std::vector<std::string> port_names = {"memory/port"};
  for (const auto& p : stats.ports) port_names.push_back(p.name);
  const auto port_lines = lines_starting_with(lines, port_names);
  REQUIRE(port_lines.size() == stats.ports.size() + 1);
  for (const auto& line : port_lines) CHECK(line.size() == port_lines[0].size());
  // dram.ch0: 9600 bytes over 32 bytes/cycle * 1000 cycles.
  CHECK(port_lines[1].find(fmt::format("{:.1f}%", 100.0 * 9600 / 32000)) != std::string::npos);
}

TEST_CASE("summary: the port table's byte columns are in binary units", "[report][byte-size]") {
  std::ostringstream os;
  print_summary(os, sample_stats(), sample_context());
  const auto lines = lines_of(os.str());
  const auto nram = lines_starting_with(lines, {"core0.nram"});
  REQUIRE(nram.size() == 1);
  // read 1000 B, written 2000 B, capacity 65536 B, peak 4096 B (ReportFixture.h).
  CHECK(nram[0].find("  1000 B  ") != std::string::npos);
  CHECK(nram[0].find("  2.0 KiB  ") != std::string::npos);
  CHECK(nram[0].find("  4 KiB  ") != std::string::npos);
  CHECK(nram[0].substr(nram[0].size() - 8) == "  64 KiB");
  const auto dram = lines_starting_with(lines, {"dram.ch0"});
  REQUIRE(dram.size() == 1);
  CHECK(dram[0].find("  0 B  ") != std::string::npos);  // no occupancy: a channel stores nothing
  CHECK(dram[0].back() == '-');
}
