// Splitting never changes a result (issue 13): every bundled network that runs
// functionally, and 50 random conv and fc layers, give the same int8 tensors for
// --split data, model-ci and model-co on 1, 4 and 16 cores. Model-ci sums int32
// partial results across cores before requantizing, so it must be bit-exact too.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/SplitRuns.h"

namespace {

namespace fs = std::filesystem;
using namespace npusim::split_runs;

// 1 core, 4 cores (2 clusters, exchange through DRAM), 16 cores (4 NUMA clusters with
// off-core caches: exchange through the own and remote caches, tensors in chunks).
std::vector<Machine> machines(const std::string& dir, const std::string& core_overrides) {
  return npusim::split_runs::machines(dir, core_overrides,
                              {{"1 core", "default.json"}, {"4 cores", "smp-2x2.json"}, {"16 cores", "numa-4x4-cache.json"}});
}

void check_network(const std::string& network) {
  const std::string dir = scratch_dir("split-equality-" + network);
  const std::string workload = source_path("traces/workloads/" + network + ".json");
  const auto ms = machines(dir, "");
  const std::string baseline = run(workload, ms[0], "data", dir + "/baseline");
  for (std::size_t i = 0; i < ms.size(); ++i)
    for (const char* split : {"data", "model-ci", "model-co"}) {
      const Machine& m = ms[i];
      INFO(m.name << ", --split " << split);
      const std::string out = run(workload, m, split, fmt::format("{}/m{}-{}", dir, i, split));
      const std::size_t layers = check_same(baseline, out, split);
      if (std::string(m.name) != "1 core") CHECK(layers > 0);  // the mode really ran
      fs::remove_all(out);
    }
}

}  // namespace

TEST_CASE("split equality: tiny.json, data = model-ci = model-co on 1, 4 and 16 cores", "[split][functional]") {
  check_network("tiny");
}

TEST_CASE("split equality: MobileNetV2, data = model-ci = model-co on 1, 4 and 16 cores", "[split][functional][heavy]") {
  check_network("mobilenetv2");
}

TEST_CASE("split equality: ResNet-50, data = model-ci = model-co on 1, 4 and 16 cores", "[split][functional][slow][heavy]") {
  check_network("resnet50");
}

TEST_CASE("split equality: pruned ResNet-50, data = model-ci = model-co on 1, 4 and 16 cores", "[split][functional][slow][heavy]") {
  check_network("resnet50-pruned");
}

TEST_CASE("split equality: VGG-16, data = model-ci = model-co on 1, 4 and 16 cores", "[split][functional][slow][heavy]") {
  check_network("vgg16");
}

// 50 random conv and fc layers (odd channel counts, strides 1-3, kernels 1-5,
// asymmetric padding, ReLU or not) on small scratchpads, so bands, co blocks and
// uneven shares all occur; every split equals the plain reference.
TEST_CASE("split equality: 50 random conv and fc layers equal the reference for every split and core count",
          "[split][functional][heavy]") {
  const std::string dir = scratch_dir("split-equality-random");
  const auto ms = machines(dir, R"({"nram": {"capacity_bytes": 16384}, "wram": {"capacity_bytes": 4096}})");
  std::mt19937 rng(20261313);
  std::map<std::string, std::size_t> ran;  // layers that ran split as asked, per machine and mode
  for (int net = 0; net < 5; ++net) {
    const RandomNet random = random_net(rng, net, false);
    const std::string workload = fmt::format("{}/net{}.json", dir, net);
    write_text(workload, random.json);
    const std::string baseline = run(workload, ms[0], "data", fmt::format("{}/net{}-baseline", dir, net));
    INFO("net " << net);
    check_reference(random, baseline);
    for (std::size_t j = 0; j < ms.size(); ++j)
      for (const char* split : {"data", "model-ci", "model-co"}) {
        const Machine& m = ms[j];
        INFO("net " << net << ", " << m.name << ", --split " << split);
        const std::string out = run(workload, m, split, fmt::format("{}/net{}-m{}-{}", dir, net, j, split));
        ran[fmt::format("{}, {}", m.name, split)] += check_same(baseline, out, split);
        fs::remove_all(out);
      }
  }
  for (const auto& [what, layers] : ran) {
    INFO(what << ": " << layers << " of 50 layers");
    if (what.rfind("1 core", 0) != 0) CHECK(layers >= 25);
  }
}
