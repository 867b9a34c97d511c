// Issue 28: every tensor had its own DRAM region, so the bundled 7B prefill needed
// 20644364288 bytes of a 16 GiB chip. When a region per tensor does not fit, dead
// tensors' regions now hold later ones; the compiler orders each write into such a
// region after the reads of what it replaces (the hazard checker verifies it at run time).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "apps/compiler/TraceEmitter.h"
#include "apps/frontend/WorkloadReader.h"
#include "e2e/NpusimProcess.h"
#include "sim/config/ConfigLoader.h"
#include "sim/tensor/Npy.h"

using namespace npusim;

namespace {

// `base` (a shipped config) with `capacity` bytes of DRAM.
std::string chip_with_dram(const std::string& base, std::uint64_t capacity) {
  const std::string path = scratch_dir("dram-" + base) + "/chip.json";
  write_text(path, fmt::format(R"({{"extends": "{}", "chip": {{"dram": {{"capacity_bytes": {}}}}}}})",
                               source_path("configs/" + base), capacity));
  return path;
}

struct Span {
  std::uint64_t begin = 0, end = 0;
  bool overlaps(const Span& o) const { return begin < o.end && o.begin < end; }
};

std::vector<Span> spans_of(const DramTensor& t) {
  std::vector<Span> out;
  for (const DramChunk& c : t.chunks) out.push_back({c.address, c.address + c.bytes});
  return out;
}

bool overlap(const std::vector<Span>& a, const std::vector<Span>& b) {
  for (const Span& x : a)
    for (const Span& y : b)
      if (x.overlaps(y)) return true;
  return false;
}

// The reference: layer i's output is live from layer i through the last layer that names
// it as an input (to the end when none does). Outputs live at the same time never share
// a byte, nor does any output share one with a constant (network input, weights).
void check_live_tensors_apart(const TraceEmitter& e) {
  const auto& layers = e.layers();
  const std::size_t n = layers.size();
  std::vector<std::size_t> last(n, n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const auto& inputs = layers[j].layer.inputs;
      if (std::find(inputs.begin(), inputs.end(), layers[i].layer.name) != inputs.end()) last[i] = j;
    }
  std::vector<Span> constants;
  for (const auto& c : layers) {
    if (c.weight_bytes == 0) continue;
    for (std::uint64_t at : c.weight_copies)
      if (at != ~std::uint64_t(0)) constants.push_back({at, at + c.weight_bytes});
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto mine = spans_of(layers[i].output);
    INFO("layer " << layers[i].layer.name);
    CHECK_FALSE(overlap(mine, constants));
    for (std::size_t k = i + 1; k < n && k <= last[i]; ++k) {
      INFO("live at the same time as " << layers[k].layer.name);
      CHECK_FALSE(overlap(mine, spans_of(layers[k].output)));
    }
  }
}

}  // namespace

TEST_CASE("DRAM reuse: the bundled 7B prefill fits configs/default.json, live tensors apart",
          "[compiler][dram_reuse]") {
  const HardwareConfig hw = load_hardware_config(source_path("configs/default.json"));
  const TraceEmitter e(read_workload(source_path("traces/workloads/llm-7b-prefill.json")), hw);
  CHECK(e.reuses_dram());
  check_live_tensors_apart(e);
}

TEST_CASE("DRAM reuse: only when a region per tensor does not fit, small networks are placed as before",
          "[compiler][dram_reuse]") {
  const HardwareConfig hw = load_hardware_config(source_path("configs/default.json"));
  const TraceEmitter tiny(read_workload(source_path("traces/workloads/tiny.json")), hw);
  CHECK_FALSE(tiny.reuses_dram());
  const TraceEmitter squeezed(read_workload(source_path("traces/workloads/mobilenetv2.json")),
                              load_hardware_config(chip_with_dram("default.json", 6 << 20)));
  CHECK(squeezed.reuses_dram());
  check_live_tensors_apart(squeezed);
}

TEST_CASE("DRAM reuse: MobileNetV2 in 6 MiB runs under every dependency mode", "[compiler][dram_reuse]") {
  const std::string chip = chip_with_dram("default.json", 6 << 20), dir = scratch_dir("reuse-modes");
  for (const char* mode : {"as_traced", "full", "two_phase", "staged"}) {
    auto r = run_npusim({"run", "--quiet", "--workload", source_path("traces/workloads/mobilenetv2.json"), "--config",
                         chip, "--dependency-mode", mode, "--out", dir + "/" + mode});
    INFO(mode << "\n" << r.output);
    CHECK(r.status == 0);
  }
  CHECK_THAT(read_text(dir + "/staged/report.json"), Catch::Contains("\"dram_reused\": true"));
}

TEST_CASE("DRAM reuse: ResNet-50 on a NUMA chip too small for a region per tensor computes the same fc1000",
          "[compiler][dram_reuse][heavy]") {
  const std::string dir = scratch_dir("reuse-functional");
  auto squeezed = run_npusim({"run", "--quiet", "--functional", "--workload", source_path("traces/workloads/resnet50.json"),
                              // 56 MiB: the data-parallel layers keep one copy of their weights (shared reads),
                              // so 64 MiB now holds a region per tensor
                              "--config", chip_with_dram("numa-2x2.json", 56 << 20), "--dependency-mode", "two_phase",
                              "--out", dir + "/reused"});
  INFO(squeezed.output);
  REQUIRE(squeezed.status == 0);
  auto roomy = run_npusim({"run", "--quiet", "--functional", "--workload", source_path("traces/workloads/resnet50.json"),
                           "--config", source_path("configs/numa-2x2.json"), "--out", dir + "/own"});
  REQUIRE(roomy.status == 0);
  CHECK(read_text(dir + "/reused/tensors/fc1000.npy") == read_text(dir + "/own/tensors/fc1000.npy"));
  // Dead tensors' regions were overwritten: only the network's output is written out.
  CHECK(std::filesystem::exists(dir + "/own/tensors/res5c_branch2c.npy"));
  CHECK_FALSE(std::filesystem::exists(dir + "/reused/tensors/res5c_branch2c.npy"));
}

TEST_CASE("DRAM reuse: a network that does not fit even so names what it needs", "[compiler][dram_reuse]") {
  auto r = run_npusim({"run", "--quiet", "--workload", source_path("traces/workloads/vgg16.json"), "--config",
                       chip_with_dram("default.json", 64 << 20), "--out", scratch_dir("reuse-too-small") + "/run"});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("even with dead tensors' DRAM reused but the chip has 67108864 bytes"));
}

namespace {

// a's last reader b is one core's global pool; c, on every core, needs nothing a or b
// wrote and may take a's bytes. Without the write-after-read dependencies, c's first
// store overwrote rows of a that b's load was still reading (the checker's "still
// reads them"). 1 MiB: 1097216 bytes with a region per tensor.
const char* kParallelBranches = R"({"name": "branches", "input": {"h": 128, "w": 128, "c": 16}, "layers": [
  {"name": "a", "type": "conv", "co": 32, "k": 3, "stride": 2, "padding": 1},
  {"name": "b", "type": "pool", "mode": "avg", "global": true},
  {"name": "f", "type": "fc", "n": 19200},
  {"name": "c", "type": "pool", "mode": "max", "k": 2, "stride": 2, "input": "input"}]})";

// The reference for c: 2x2 max pooling of the NHWC int8 input, stride 2.
std::vector<std::uint8_t> max_pool_2x2(const NpyArray& in) {
  const std::uint64_t h = in.shape[1], w = in.shape[2], c = in.shape[3];
  std::vector<std::uint8_t> out;
  auto at = [&](std::uint64_t y, std::uint64_t x, std::uint64_t k) { return std::int8_t(in.data[(y * w + x) * c + k]); };
  for (std::uint64_t y = 0; y < h / 2; ++y)
    for (std::uint64_t x = 0; x < w / 2; ++x)
      for (std::uint64_t k = 0; k < c; ++k)
        out.push_back(std::uint8_t(std::max({at(2 * y, 2 * x, k), at(2 * y, 2 * x + 1, k), at(2 * y + 1, 2 * x, k),
                                             at(2 * y + 1, 2 * x + 1, k)})));
  return out;
}

}  // namespace

TEST_CASE("DRAM reuse: a write into a dead tensor's region waits for that tensor's last reads",
          "[compiler][dram_reuse]") {
  const std::string dir = scratch_dir("reuse-war"), chip = chip_with_dram("smp-2x2.json", 1 << 20);
  write_text(dir + "/branches.json", kParallelBranches);
  for (const char* mode : {"as_traced", "full", "two_phase", "staged"}) {
    auto r = run_npusim({"run", "--quiet", "--functional", "--workload", dir + "/branches.json", "--config", chip,
                         "--dependency-mode", mode, "--out", dir + "/" + mode});
    INFO(mode << "\n" << r.output);
    REQUIRE(r.status == 0);
    const NpyArray c = read_npy(dir + "/" + mode + "/tensors/c.npy");
    CHECK(c.data == max_pool_2x2(read_npy(dir + "/" + mode + "/tensors/input.npy")));
  }
  CHECK_THAT(read_text(dir + "/staged/report.json"), Catch::Contains("\"dram_reused\": true"));
}
