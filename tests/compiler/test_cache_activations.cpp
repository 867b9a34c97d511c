// Activations through the cluster caches (issue 45, seed002 ¶202-207): on a chip with
// off-core caches, a layer's output that its reader takes cut along h (the shared-cache
// database stores such an input neuron in `cluster`) stays in the caches, each cluster's
// cache keeping the rows its cores write, and the next layer reads it from there (its own
// cache, or a neighbour's for the halo rows) instead of a DRAM round trip. The tensors
// equal one core's; DRAM bytes fall; a cache too small for a tensor leaves it in DRAM.
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/SplitRuns.h"

using namespace npusim::split_runs;

namespace {

// A chain of batch-1 layers whose every output is read by the next one.
const char* kChain = R"({"name": "chain", "input": {"h": 32, "w": 32, "c": 16}, "seed": 3, "layers": [
  {"name": "c1", "type": "conv", "co": 32, "k": 3, "padding": 1, "relu": true},
  {"name": "c2", "type": "conv", "co": 32, "k": 3, "padding": 1, "relu": true},
  {"name": "p2", "type": "pool", "mode": "max", "k": 2, "stride": 2},
  {"name": "c3", "type": "conv", "co": 48, "k": 3, "padding": 1},
  {"name": "a3", "type": "add", "inputs": ["c3", "c3"]},
  {"name": "c4", "type": "conv", "co": 16, "k": 1}]})";

// The shipped shared-cache database with every input neuron in `mem`: activations through DRAM.
std::string dram_activations_db(const std::string& dir) {
  std::string db = read_text(source_path("configs/split-strategies/shared-cache.json"));
  db = std::regex_replace(db, std::regex(R"("dim": "h", "store": "cluster")"), R"("dim": "h", "store": "mem")");
  write_text(dir + "/dram-activations.json", db);
  return dir + "/dram-activations.json";
}

std::string cache_chip(const std::string& dir, std::uint64_t capacity) {
  const std::string path = fmt::format("{}/cache-{}.json", dir, capacity);
  write_text(path, fmt::format(R"({{"extends": "{}", "chip": {{"cluster_cache": {{"capacity_bytes": {}}}}}}})",
                               source_path("configs/smp-2x2-cache.json"), capacity));
  return path;
}

struct Run {
  std::uint64_t dram = 0, cache = 0;
};

Run measure(const std::string& workload, const std::string& config, const std::string& out,
            const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"run", "--quiet", "--functional", "--workload", workload, "--config", config,
                                   "--split", "data", "--out", out};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_npusim(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
  Run m;
  // Held by name: a range-for over a member of a temporary would read it after its end.
  const nlohmann::json report = nlohmann::json::parse(read_text(out + "/report.json"));
  for (const auto& row : report.at("workload").at("rows")) {
    m.dram += row.at("dram_bytes").get<std::uint64_t>();
    if (row.at("split").contains("cache_bytes_by_cluster"))
      for (const auto& b : row.at("split").at("cache_bytes_by_cluster")) m.cache += b.get<std::uint64_t>();
  }
  return m;
}

}  // namespace

TEST_CASE("cache activations: a chain of layers keeps its outputs in the cluster caches, same tensors, fewer DRAM bytes",
          "[cache][functional]") {
  const std::string dir = scratch_dir("cache-activations");
  write_text(dir + "/chain.json", kChain);
  const std::string one = run(dir + "/chain.json", {"1 core", source_path("configs/default.json")}, "data", dir + "/one");
  const Run cached = measure(dir + "/chain.json", source_path("configs/smp-2x2-cache.json"), dir + "/cached");
  const Run dram = measure(dir + "/chain.json", source_path("configs/smp-2x2-cache.json"), dir + "/dram",
                           {"--split-strategies", dram_activations_db(dir)});
  check_same(one, dir + "/cached", "data");
  check_same(one, dir + "/dram", "data");
  INFO("DRAM bytes " << cached.dram << " through the caches, " << dram.dram << " without; cache bytes " << cached.cache);
  CHECK(cached.cache > dram.cache);
  // c1..a3 are read by the next layer: their outputs never cross DRAM (c4's goes to the host).
  const std::uint64_t hidden = 32 * 32 * 32 * 2 + 16 * 16 * 32 + 16 * 16 * 48 * 2;
  CHECK(dram.dram - cached.dram >= 2 * hidden * 9 / 10);
}

TEST_CASE("cache activations: a cache too small keeps only what fits, DRAM bytes fall as the cache grows",
          "[cache]") {
  const std::string dir = scratch_dir("cache-capacity");
  write_text(dir + "/chain.json", kChain);
  std::uint64_t previous = ~std::uint64_t(0);
  std::vector<std::uint64_t> seen;
  for (std::uint64_t kib : {1, 16, 32, 64, 1024}) {
    const Run r = measure(dir + "/chain.json", cache_chip(dir, kib * 1024), fmt::format("{}/{}k", dir, kib));
    INFO(kib << " KiB: " << r.dram << " DRAM bytes");
    CHECK(r.dram <= previous);
    previous = r.dram;
    seen.push_back(r.dram);
  }
  CHECK(seen.front() > seen[2]);  // some tensors fit 32 KiB and not 1 KiB
  CHECK(seen[2] > seen.back());   // and more fit 1 MiB
}
