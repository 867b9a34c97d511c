// Multicast copies (load params.multicast, seed002 §3.9): a DRAM read that the routing
// fabric replicates to other cores books the DRAM channel once. A "cluster" copy crosses
// the links into its cluster, a "core" copy (its cluster already has the bytes) nothing
// but the destination scratchpad. Expected bytes are counted from the trace alone.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "e2e/NpusimProcess.h"
#include "scheduling/SchedulingRun.h"

using nlohmann::json;

namespace {

constexpr std::uint64_t kRows = 8, kRowBytes = 4096, kBlock = kRows * kRowBytes;

// configs/smp-2x2.json (2 clusters of 2 cores, no caches) with its DMAs written out.
std::string smp_config() {
  return json{{"extends", source_path("configs/smp-2x2.json")},
              {"core",
               {{"controller", {{"dispatch_cycles", 0}}},
                {"load_dma", {{"bytes_per_cycle", 64}, {"setup_cycles", 0}, {"segment_bytes", kRowBytes}}}}}}
      .dump(2);
}

// A load of the block at DRAM 0 into `core`'s WRAM; a copy of load 0 when `multicast` is set.
json weight_load(std::uint64_t id, std::uint64_t core, const std::string& multicast) {
  json line = instruction(id, "load", tensor("dram", 0, {kRows, kRowBytes}), tensor("wram", 0, {kRows, kRowBytes}),
                          multicast.empty() ? std::vector<json>{} : std::vector<json>{dependency(0, "two_phase")});
  line["core"] = core;
  if (!multicast.empty()) line["params"] = {{"multicast", multicast}};
  return line;
}

struct Traffic {
  std::uint64_t dram_read = 0;
  std::map<std::string, std::uint64_t> link_read;
};

Traffic traffic_of(const SchedulingRun& run) {
  Traffic t;
  for (const auto& m : run.report.at("memories")) {
    if (m.at("kind") == "dram_channel") t.dram_read += m.at("bytes_read").get<std::uint64_t>();
    if (m.at("kind") == "link") t.link_read[m.at("name")] = m.at("bytes_read").get<std::uint64_t>();
  }
  return t;
}

// Core 0 reads; core 1 (same cluster), core 2 and core 3 (the other cluster) take copies.
std::vector<json> shared_block() {
  return {weight_load(0, 0, ""), weight_load(1, 1, "core"), weight_load(2, 2, "cluster"), weight_load(3, 3, "core")};
}

}  // namespace

TEST_CASE("multicast: four cores take one block for one DRAM read, each cluster's link carries it once",
          "[interconnect][multicast]") {
  auto shared = run_trace_on("multicast-shared", smp_config(), shared_block());
  auto apart = run_trace_on("multicast-apart", smp_config(),
                            {weight_load(0, 0, ""), weight_load(1, 1, ""), weight_load(2, 2, ""), weight_load(3, 3, "")});
  INFO(shared.output << apart.output);
  REQUIRE(shared.status == 0);
  REQUIRE(apart.status == 0);
  const Traffic one = traffic_of(shared), four = traffic_of(apart);
  CHECK(one.dram_read == kBlock);
  CHECK(four.dram_read == 4 * kBlock);
  CHECK(one.link_read.at("interconnect.cluster0") == kBlock);  // the read; core 1's copy fans out behind R
  CHECK(one.link_read.at("interconnect.cluster1") == kBlock);  // core 2's copy; core 3's fans out
  CHECK(four.link_read.at("interconnect.cluster0") == 2 * kBlock);
  // A copy starts once the read has left DRAM, so it ends after it; sharing the
  // channel four ways takes longer than one read and its copies.
  for (std::uint64_t id : {1, 2, 3}) CHECK(shared.by_id.at(id).end > shared.by_id.at(0).start);
  CHECK(shared.total_cycles() < apart.total_cycles());
}

TEST_CASE("multicast: a copy on a NUMA chip crosses the link between the clusters", "[interconnect][multicast]") {
  const std::string config =
      json{{"extends", source_path("configs/numa-2x2.json")}, {"core", {{"controller", {{"dispatch_cycles", 0}}}}}}.dump();
  auto run = run_trace_on("multicast-numa", config, shared_block());
  INFO(run.output);
  REQUIRE(run.status == 0);
  const Traffic t = traffic_of(run);
  CHECK(t.dram_read == kBlock);
  CHECK(t.link_read.at("interconnect.cluster0-cluster1") == kBlock);  // memory 0 to cluster 1, once
}

TEST_CASE("multicast: every dependency mode runs the shared block without a hazard", "[interconnect][multicast]") {
  for (const char* mode : {"full", "two_phase", "staged"}) {
    auto run = run_trace_on(std::string("multicast-mode-") + mode, smp_config(), shared_block(), mode);
    INFO(mode << "\n" << run.output);
    CHECK(run.status == 0);
  }
}

TEST_CASE("multicast: a bad multicast copy is one error line and exit 2", "[interconnect][multicast]") {
  json wrong_value = weight_load(1, 1, "everywhere");
  json no_dependency = weight_load(1, 1, "core");
  no_dependency.erase("deps");
  const std::vector<std::pair<json, std::string>> cases = {
      {wrong_value, "'params.multicast': must be \"cluster\" or \"core\""},
      {no_dependency, "'params.multicast': a multicast copy must depend on the load that read its bytes"}};
  for (const auto& [line, message] : cases) {
    auto run = run_trace_on("multicast-bad", smp_config(), {weight_load(0, 0, ""), line});
    INFO(run.output);
    CHECK(run.status == 2);
    CHECK(run.output.find("error: ") != std::string::npos);
    CHECK(run.output.find(message) != std::string::npos);
  }
}

// A cluster may also fetch a block once into its off-core cache (seed002 §3.6: a conv's
// weights are stored in `cluster`), from which its cores load it.
TEST_CASE("multicast: a load fills the cluster cache from DRAM, and only from DRAM", "[cluster_cache][multicast]") {
  const std::string config = json{{"extends", source_path("configs/smp-2x2-cache.json")}}.dump();
  json fill = instruction(0, "load", tensor("dram", 0, {kRows, kRowBytes}), tensor("cluster", 0, {kRows, kRowBytes}));
  json read = instruction(1, "load", tensor("cluster", 0, {kRows, kRowBytes}), tensor("wram", 0, {kRows, kRowBytes}),
                          {dependency(0, "full")});
  read["core"] = 1;
  auto run = run_trace_on("cache-fill", config, {fill, read});
  INFO(run.output);
  REQUIRE(run.status == 0);
  std::uint64_t cache_written = 0, cache_read = 0;
  for (const auto& m : run.report.at("memories"))
    if (m.at("name") == "cluster0.cache") {
      cache_written = m.at("bytes_written").get<std::uint64_t>();
      cache_read = m.at("bytes_read").get<std::uint64_t>();
    }
  CHECK(cache_written == kBlock);
  CHECK(cache_read == kBlock);
  CHECK(traffic_of(run).dram_read == kBlock);
  CHECK(run.by_id.at(1).start >= run.by_id.at(0).end);

  json copy = instruction(2, "load", tensor("cluster", 0, {kRows, kRowBytes}), tensor("cluster", 1 << 20, {kRows, kRowBytes}));
  auto bad = run_trace_on("cache-fill-bad", config, {copy});
  CHECK(bad.status == 2);
  CHECK(bad.output.find("a load fills the cluster cache from DRAM only") != std::string::npos);
}
