// seed002's hybrid mode (¶55, §3.9): model parallel inside each cluster, data parallel
// between clusters (--split hybrid-co, hybrid-ci). Its tensors equal one core's over
// random conv, fc and matmul layers on 4, 16 and 64 cores; the tags carry the §3.9
// table's exchange levels; a hybrid-ci reduction stays inside each cluster (its cache,
// or its memory without one); no hazard under any dependency mode.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/SplitRuns.h"

using namespace npusim::split_runs;

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kHybrid = {"hybrid-co", "hybrid-ci"};

// 4 cores (2 clusters of 2 with caches), 16 (4 NUMA clusters with caches), 64 (8 SMP clusters, no caches).
std::vector<Machine> hybrid_machines(const std::string& dir, const std::string& core_overrides) {
  return machines(dir, core_overrides,
                  {{"1 core", "default.json"},
                   {"4 cores", "smp-2x2-cache.json"},
                   {"16 cores", "numa-4x4-cache.json"},
                   {"64 cores", "smp-8x8.json"}});
}

nlohmann::json rows_of(const std::string& run_dir) {
  return nlohmann::json::parse(read_text(run_dir + "/report.json")).at("workload").at("rows");
}

// An MLP of `batch` images through one fc layer (seed002 Example 1's shape, 1024 -> 64).
std::string mlp(const std::string& dir, std::uint32_t batch) {
  const std::string path = dir + "/mlp.json";
  write_text(path, fmt::format(R"({{"batch":{},"input":{{"h":1,"w":1,"c":1024}},)"
                               R"("layers":[{{"name":"o","type":"fc","n":64}}]}})",
                               batch));
  return path;
}

std::string swap_of(const nlohmann::json& row, const std::string& tensor) {
  const std::string tag = row.at("split").at("tags").at(tensor);
  return tag.substr(tag.rfind(',') + 1);
}

}  // namespace

TEST_CASE("hybrid split: random conv, fc and matmul layers equal one core on 4, 16 and 64 cores",
          "[split][hybrid][functional][heavy]") {
  const std::string dir = scratch_dir("hybrid-random");
  const auto ms = hybrid_machines(dir, R"({"nram": {"capacity_bytes": 16384}, "wram": {"capacity_bytes": 4096}})");
  std::mt19937 rng(20261245);
  std::map<std::string, std::size_t> ran;
  for (int net = 0; net < 3; ++net) {
    const RandomNet random = random_net(rng, net, true);
    const std::string workload = fmt::format("{}/net{}.json", dir, net);
    write_text(workload, random.json);
    const std::string baseline = run(workload, ms[0], "data", fmt::format("{}/net{}-baseline", dir, net));
    INFO("net " << net);
    check_reference(random, baseline);
    for (std::size_t j = 1; j < ms.size(); ++j)
      for (const std::string& split : kHybrid) {
        INFO("net " << net << ", " << ms[j].name << ", --split " << split);
        const std::string out = run(workload, ms[j], split, fmt::format("{}/net{}-m{}-{}", dir, net, j, split));
        ran[fmt::format("{}, {}", ms[j].name, split)] += check_same(baseline, out, split);
        fs::remove_all(out);
      }
  }
  for (const auto& [what, layers] : ran) {
    INFO(what << ": " << layers << " of 30 conv and fc layers split that way");
    CHECK(layers >= 10);
  }
}

TEST_CASE("hybrid split: seed002 §3.9, model parallel in a cluster and data parallel between clusters, "
          "exchanges input and output neurons, not weights, at the table's levels",
          "[split][hybrid][seed002]") {
  const std::string dir = scratch_dir("hybrid-table");
  const std::string workload = mlp(dir, 4);
  // Shared-cache chip: outputs inter-core + inter-cluster, inputs inter-cluster, weights not exchanged.
  const auto cache = rows_of(run(workload, {"4 cores, caches", source_path("configs/smp-2x2-cache.json")}, "hybrid-ci",
                                 dir + "/cache"));
  const auto& row = cache.at(0);
  REQUIRE(row.at("split").at("mode") == "hybrid-ci");
  CHECK(swap_of(row, "o") == "core+cluster");
  CHECK(swap_of(row, "input") == "cluster");
  CHECK(swap_of(row, "o.weights") == "no");
  // The partial sums of each cluster's two cores meet in its own cache, never another's or DRAM.
  const auto& exchange = row.at("split").at("exchange_bytes");
  CHECK(exchange.at("cluster_cache").get<std::uint64_t>() > 0);
  CHECK(exchange.at("remote_cache") == 0);
  CHECK(exchange.at("dram") == 0);
  // Each cluster takes its own images: both clusters store results, from their first core.
  CHECK(row.at("split").at("shares").size() == 4);
  // Bus-contention chip: the partial sums go through the cluster's memory (Example 2's level).
  const auto bus = rows_of(run(workload, {"4 cores", source_path("configs/smp-2x2.json")}, "hybrid-ci", dir + "/bus"));
  CHECK(swap_of(bus.at(0), "o") == "cluster");
  CHECK(bus.at(0).at("split").at("exchange_bytes").at("dram").get<std::uint64_t>() > 0);
}

TEST_CASE("hybrid split: no hazard under any dependency mode, tensors the same", "[split][hybrid][dependency_modes][heavy]") {
  const std::string dir = scratch_dir("hybrid-modes");
  const auto ms = hybrid_machines(dir, "");
  const std::string workload = source_path("traces/workloads/tiny.json");
  const std::string baseline = run(workload, ms[0], "data", dir + "/baseline");
  for (std::size_t j = 1; j < ms.size(); ++j)
    for (const std::string& split : kHybrid)
      for (const char* mode : {"as_traced", "full", "two_phase", "staged"}) {
        INFO(ms[j].name << ", --split " << split << ", --dependency-mode " << mode);
        const std::string out = run(workload, ms[j], split, fmt::format("{}/m{}-{}-{}", dir, j, split, mode), mode);
        check_same(baseline, out, split);
        fs::remove_all(out);
      }
}
