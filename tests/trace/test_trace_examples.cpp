#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"
#include "sim/tensor/Npy.h"
#include "sim/trace/TraceReader.h"
#include "trace/TraceTestSupport.h"
#include "TestPaths.h"

using namespace npusim;

namespace {
std::string example(const std::string& name) { return std::string(NPUSIM_SOURCE_DIR) + "/traces/examples/" + name; }
}  // namespace

TEST_CASE("the example traces are valid on the configs the doc names", "[trace]") {
  HardwareConfig chip = default_hardware_config();
  CHECK(validate_trace(example("relu.jsonl"), chip) == 3);
  CHECK(validate_trace(example("add.jsonl"), chip) == 4);
  CHECK(validate_trace(example("conv.jsonl"), chip) == 4);
  CHECK(validate_trace(example("channel-swap.jsonl"), chip) == 5);
  HardwareConfig four_cores = load_hardware_config(std::string(NPUSIM_SOURCE_DIR) + "/configs/smp-2x2.json");
  CHECK(validate_trace(example("multicore.jsonl"), four_cores) == 12);
  HardwareConfig cached = load_hardware_config(std::string(NPUSIM_SOURCE_DIR) + "/configs/smp-2x2-cache.json");
  CHECK(validate_trace(example("cluster-handoff.jsonl"), cached) == 5);
  // The cluster space exists only when the chip has cluster caches.
  CHECK_THROWS_AS(validate_trace(example("cluster-handoff.jsonl"), four_cores), InputError);
  // The multicore trace names cores 1..3, which the one-core default chip lacks.
  CHECK_THROWS_AS(validate_trace(example("multicore.jsonl"), chip), InputError);
}

TEST_CASE("the relu example binds a committed .npy input", "[trace]") {
  TraceReader reader(example("relu.jsonl"), default_hardware_config());
  REQUIRE(reader.header().inputs.size() == 1);
  const auto& x = reader.header().inputs[0];
  NpyArray data = read_npy(x.file_path);
  CHECK(data.shape == x.region.shape);
  CHECK(data.dtype == x.region.dtype);
  REQUIRE(reader.header().outputs.size() == 1);
}

TEST_CASE("make-long-trace.py writes a valid trace of the requested length", "[trace]") {
  if (std::system("python3 --version >/dev/null 2>&1") != 0) {
    WARN("python3 is not on PATH; skipped");
    return;
  }
  testing::ScratchDir dir;
  std::string out = dir.file("long.jsonl");
  std::string cmd = "python3 " + std::string(NPUSIM_SOURCE_DIR) + "/scripts/make-long-trace.py 3001 " + out;
  REQUIRE(std::system(cmd.c_str()) == 0);
  CHECK(validate_trace(out, default_hardware_config()) == 3001);
}
