#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include <fmt/format.h>
#include <unistd.h>

#include "sim/trace/TraceReader.h"
#include "trace/TraceTestSupport.h"

using namespace npusim;
using namespace npusim::testing;

namespace {

std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

// LOAD -> RELU -> STORE chains, each reusing the same NRAM bytes.
void write_chains(const std::string& path, std::uint64_t instructions) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  std::fputs(R"({"format":"npusim-trace","version":1})" "\n", f);
  const char* t = R"({{"space":"{}","offset":{},"shape":[1,4,4,8],"dtype":"int8"}})";
  for (std::uint64_t id = 0; id < instructions; ++id) {
    std::string line;
    switch (id % 3) {
      case 0:
        line = fmt::format(R"({{"id":{},"op":"load","inputs":[{}],"outputs":[{}]}})", id, fmt::format(t, "dram", 0),
                           fmt::format(t, "nram", 0));
        break;
      case 1:
        line = fmt::format(R"({{"id":{},"op":"relu","inputs":[{}],"outputs":[{}],"deps":[{}]}})", id,
                           fmt::format(t, "nram", 0), fmt::format(t, "nram", 128), id - 1);
        break;
      default:
        line = fmt::format(R"({{"id":{},"op":"store","inputs":[{}],"outputs":[{}],"deps":[{{"id":{},"mode":"staged","granularity":"rows"}}]}})",
                           id, fmt::format(t, "nram", 128), fmt::format(t, "dram", 4096), id - 1);
    }
    std::fputs(line.c_str(), f);
    std::fputc('\n', f);
  }
  std::fclose(f);
}

}  // namespace

TEST_CASE("reading a 200k-line trace keeps resident memory flat", "[trace][rss][heavy]") {
  ScratchDir dir;
  const std::uint64_t total = 200000;
  auto path = dir.file("long.jsonl");
  write_chains(path, total);

  TraceReader reader(path, small_config());
  Instruction ins;
  // Warm up first so that allocator pools and buffers already exist.
  int warm = 0;
  while (warm < 20000 && reader.next(ins)) ++warm;
  REQUIRE(warm == 20000);
  std::uint64_t before = resident_bytes();
  while (reader.next(ins)) {
  }
  std::uint64_t after = resident_bytes();
  INFO("resident before " << before << " bytes, after " << after << " bytes");
  CHECK(reader.instructions_read() == total);
  CHECK(ins.id == total - 1);
  // Keeping even 40 bytes per instruction would add 7 MB here.
  CHECK(after < before + 4 * 1024 * 1024);
}
