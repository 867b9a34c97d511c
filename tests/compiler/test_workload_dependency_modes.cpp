// Issue 28: the compiler's dependencies hold under every dependency mode. Forcing
// two_phase or staged used to stop the bundled tiny net with a dependency hazard: a
// layer's later loads relied on its first load having waited for the producer's last
// stores, which only means "every store landed" when the wait is a full one. Now every
// DRAM read depends on the instructions that wrote the bytes it reads.
// The larger bundled workloads: ctest label all_modes (tests/compiler/workload_all_modes.sh).
#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/NpusimProcess.h"

namespace {

const std::vector<std::string> kModes = {"as_traced", "full", "two_phase", "staged"};

NpusimResult run_mode(const std::string& workload, const std::string& config, const std::string& mode,
                      const std::string& out, bool functional = false) {
  std::vector<std::string> args = {"run", "--quiet", "--workload", source_path("traces/workloads/" + workload),
                                   "--config", source_path("configs/" + config), "--dependency-mode", mode,
                                   "--out", out};
  if (functional) args.push_back("--functional");
  return run_npusim(args);
}

void check_every_mode(const std::string& workload, const std::string& config) {
  const std::string dir = scratch_dir("modes-" + workload + "-" + config);
  for (const auto& mode : kModes) {
    auto r = run_mode(workload, config, mode, dir + "/" + mode);
    INFO(workload << " on " << config << " with --dependency-mode " << mode << "\n" << r.output);
    CHECK(r.status == 0);
  }
}

}  // namespace

TEST_CASE("dependency modes: tiny.json runs under every mode on every kind of chip", "[compiler][dependency_modes][heavy]") {
  for (const char* config : {"default.json", "smp-4x4.json", "numa-2x2.json", "smp-2x2-cache.json",
                             "gpu-shader.json", "sparse.json", "hetero-2x2.json"})
    check_every_mode("tiny.json", config);
}

TEST_CASE("dependency modes: tiny.json computes the same tensors under every mode", "[compiler][dependency_modes][heavy]") {
  const std::string dir = scratch_dir("modes-tiny-functional");
  for (const auto& mode : kModes) {
    auto r = run_mode("tiny.json", "smp-4x4.json", mode, dir + "/" + mode, true);
    INFO(mode << "\n" << r.output);
    REQUIRE(r.status == 0);
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/as_traced/tensors"))
    for (const auto& mode : kModes) {
      INFO(mode << ": " << entry.path().filename());
      CHECK(read_text(dir + "/" + mode + "/tensors/" + entry.path().filename().string()) ==
            read_text(entry.path().string()));
    }
}

TEST_CASE("dependency modes: small networks run under every mode, one core and NUMA", "[compiler][dependency_modes][heavy]") {
  for (const char* workload : {"mobilenetv2.json", "scale-sim-example.csv", "bert-base-2l.json",
                               "llm-7b-decode-2l.json"})
    for (const char* config : {"default.json", "numa-2x2.json"}) check_every_mode(workload, config);
}
