// Byte-valued sweep axes and metrics in charts (issue 35): the charts (python/npusim/charts.py) label
// them in KiB, MiB, GiB with python/npusim/byte_units.py, which must read exactly like the CLI's
// tables (sim/common/ByteSize.h).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "e2e/NpusimProcess.h"
#include "sim/common/ByteSize.h"

namespace {

// Runs a Python snippet with the checkout's package importable; returns what it printed.
std::string python(const std::string& dir, const std::string& body) {
  write_text(dir + "/snippet.py", "import sys\nsys.path.insert(0, '" + source_path("python") + "')\n" + body);
  const std::string command = "/usr/bin/python3 " + dir + "/snippet.py > " + dir + "/out.txt 2>&1";
  const int status = std::system(command.c_str());
  INFO(read_text(dir + "/out.txt"));
  REQUIRE(status == 0);
  return read_text(dir + "/out.txt");
}

// The x and y tick labels charts.set_scales gives a chart of these points.
std::string tick_labels(const std::string& dir, const std::string& x, const std::string& y, bool logx) {
  return python(dir,
                "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
                "from npusim import charts\n"
                "series = {None: [(131072, 5e6), (262144, 4e6), (524288, 3e6), (1048576, 2.5e6)]}\n"
                "fig, ax = plt.subplots()\nax.plot(*zip(*series[None]))\n"
                "charts.set_scales(ax, series, '" + x + "', '" + y + "', " + (logx ? "True" : "False") +
                    ", False, True)\nfig.canvas.draw()\n"
                "lo, hi = ax.get_xlim()\n"
                "print('|'.join(t.get_text() for t in ax.get_xticklabels() if lo <= t.get_position()[0] <= hi))\n"
                "lo, hi = ax.get_ylim()\n"
                "print('|'.join(t.get_text() for t in ax.get_yticklabels() if lo <= t.get_position()[1] <= hi))\n");
}

}  // namespace

TEST_CASE("npusim.byte_units writes byte counts exactly as the CLI's tables do", "[sweep][byte-size]") {
  const std::string dir = scratch_dir("byte-units-py");
  std::vector<std::uint64_t> counts = {0, 1, 1000, 1023, 1024, 1536, 2000, 6400, 100000, 524288, 1048575,
                                       26542080, std::uint64_t(3) << 30, std::uint64_t(5) << 40};
  for (std::uint64_t c = 7; c < (std::uint64_t(1) << 42); c = c * 37 + 11) counts.push_back(c);
  std::string list, expected;
  for (const auto c : counts) {
    list += std::to_string(c) + ",";
    expected += npusim::byte_size_text(c) + "\n";
  }
  CHECK(python(dir, "from npusim.byte_units import byte_size_text\nfor c in [" + list + "]:\n    print(byte_size_text(c))\n") ==
        expected);
  CHECK(python(dir, "from npusim.byte_units import is_byte_valued as b\n"
                    "print(b('core.nram.capacity_bytes'), b('dram_bytes'), b('bytes_read'), b('bytes'),"
                    " b('bytes_per_cycle'), b('total_cycles'), b('_bytes'))\n") ==
        "True True True True False False False\n");
}

TEST_CASE("charts: a byte-valued axis is labelled in KiB and MiB", "[sweep][byte-size][heavy]") {
  const std::string dir = scratch_dir("plot-byte-axes");
  SECTION("on a log axis, at the swept values") {
    const std::string labels = tick_labels(dir, "core.nram.capacity_bytes", "total_cycles", true);
    CHECK(labels.substr(0, labels.find('\n')) == "128 KiB|256 KiB|512 KiB|1 MiB");
  }
  SECTION("on a linear axis, at a power-of-two step; other axes as before") {
    const std::string labels = tick_labels(dir, "capacity_bytes", "total_cycles", false);
    std::istringstream lines(labels);
    std::string x, y;
    std::getline(lines, x);
    std::getline(lines, y);
    CHECK(x == "128 KiB|256 KiB|384 KiB|512 KiB|640 KiB|768 KiB|896 KiB|1 MiB");
    CHECK(y.find("KiB") == std::string::npos);  // total_cycles counts no bytes
  }
  SECTION("a byte-valued metric on y") {
    const std::string labels = tick_labels(dir, "slaves", "dram_bytes", false);
    const std::string y = labels.substr(labels.find('\n') + 1);
    CHECK(y.find("MiB") != std::string::npos);
    CHECK(y.find("e6") == std::string::npos);
  }
  SECTION("the Pareto front's printed points too") {
    write_text(dir + "/results.csv",
               "index,point,nram_bytes,status,error,total_cycles\n"
               "0,a,131072,ok,,400\n1,b,524288,ok,,200\n2,c,1048576,ok,,250\n");
    const std::string command = "/usr/bin/python3 " + source_path("scripts/plot_sweep.py") + " " + dir +
                                "/results.csv -x total_cycles -y nram_bytes --pareto -o " + dir + "/front.png > " +
                                dir + "/front.txt";
    REQUIRE(std::system(command.c_str()) == 0);
    CHECK(read_text(dir + "/front.txt") == "front: total_cycles=200 nram_bytes=512 KiB b\n"
                                           "front: total_cycles=400 nram_bytes=128 KiB a\nwrote " + dir + "/front.png\n");
  }
}
