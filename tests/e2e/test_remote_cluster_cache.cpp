// A load or store may name another cluster's off-core cache ("cluster": k), as core 1
// reads off-core cache 2 in seed002 Example 1: the data arrives, the remote cache's
// port carries it, and the path costs remote_hops x hop_latency each way more than
// the same access to the core's own cache.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "sim/tensor/Npy.h"

namespace {

// Core 2 (cluster 1) leaves x in its cache; core `reader` loads it from cluster 1's
// cache and stores it to DRAM as y.
struct Handoff {
  nlohmann::json report;
  std::vector<std::uint8_t> x, y;
};

Handoff handoff(const std::string& dir, std::uint32_t reader, const std::string& config_text) {
  write_text(dir + "/config.json", config_text);
  write_text(dir + "/t.jsonl",
             std::string(R"({"format":"npusim-trace","version":1,"inputs":[{"name":"x","space":"dram","offset":0,"shape":[4096],"dtype":"int8","random_seed":9}],"outputs":[{"name":"x","space":"dram","offset":0,"shape":[4096],"dtype":"int8"},{"name":"y","space":"dram","offset":8192,"shape":[4096],"dtype":"int8"}]})") +
                 "\n" +
                 R"({"id":0,"op":"load","core":2,"inputs":[{"space":"dram","offset":0,"shape":[4096],"dtype":"int8"}],"outputs":[{"space":"nram","offset":0,"shape":[4096],"dtype":"int8"}]})"
                 "\n"
                 R"({"id":1,"op":"store","core":2,"inputs":[{"space":"nram","offset":0,"shape":[4096],"dtype":"int8"}],"outputs":[{"space":"cluster","offset":0,"shape":[4096],"dtype":"int8"}],"deps":[0]})"
                 "\n" +
                 fmt::format(R"({{"id":2,"op":"load","core":{},"inputs":[{{"space":"cluster","cluster":1,"offset":0,"shape":[4096],"dtype":"int8"}}],"outputs":[{{"space":"nram","offset":0,"shape":[4096],"dtype":"int8"}}],"deps":[1]}})",
                             reader) +
                 "\n" +
                 fmt::format(R"({{"id":3,"op":"store","core":{},"inputs":[{{"space":"nram","offset":0,"shape":[4096],"dtype":"int8"}}],"outputs":[{{"space":"dram","offset":8192,"shape":[4096],"dtype":"int8"}}],"deps":[2]}})",
                             reader) +
                 "\n");
  auto r = run_npusim({"run", "--quiet", "--functional", "--config", dir + "/config.json", "--trace", dir + "/t.jsonl",
                       "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  return {nlohmann::json::parse(read_text(dir + "/run/report.json")), npusim::read_npy(dir + "/run/tensors/x.npy").data,
          npusim::read_npy(dir + "/run/tensors/y.npy").data};
}

std::uint64_t cycles_of(const nlohmann::json& report, std::uint64_t id) {
  for (const auto& row : report.at("instruction_rows"))
    if (row.at("id") == id) return row.at("end").get<std::uint64_t>() - row.at("start").get<std::uint64_t>();
  FAIL("no instruction " << id);
  return 0;
}

}  // namespace

TEST_CASE("cluster cache: a core reads another cluster's cache across the routing nodes", "[e2e][cluster_cache]") {
  const std::string config = "{\"extends\": \"" + source_path("configs/smp-2x2-cache.json") +
                             "\", \"chip\": {\"interconnect\": {\"hop_latency\": 7}, \"cluster_cache\": {\"remote_hops\": 3}}}";
  const std::string dir = scratch_dir("remote-cache");
  const Handoff remote = handoff(dir, 0, config);                          // core 0 is in cluster 0
  const Handoff local = handoff(scratch_dir("remote-cache-local"), 3, config);  // core 3 is in cluster 1 itself
  CHECK(remote.y == remote.x);
  CHECK(local.y == local.x);
  CHECK(cycles_of(remote.report, 2) == cycles_of(local.report, 2) + 2 * 3 * 7);
  for (const auto& m : remote.report.at("memories")) {
    if (m.at("name") == "cluster1.cache") CHECK(m.at("bytes_read") == 4096);
    if (m.at("name") == "cluster0.cache") CHECK(m.at("bytes_read") == 0);
  }
  // Only the cache side of a load or store may name a cluster, and it must exist.
  for (const char* line :
       {R"({"id":0,"op":"load","core":0,"inputs":[{"space":"dram","cluster":1,"offset":0,"shape":[16],"dtype":"int8"}],"outputs":[{"space":"nram","offset":0,"shape":[16],"dtype":"int8"}]})",
        R"({"id":0,"op":"load","core":0,"inputs":[{"space":"cluster","cluster":2,"offset":0,"shape":[16],"dtype":"int8"}],"outputs":[{"space":"nram","offset":0,"shape":[16],"dtype":"int8"}]})"}) {
    write_text(dir + "/bad.jsonl", std::string(R"({"format":"npusim-trace","version":1})") + "\n" + line + "\n");
    auto bad = run_npusim({"validate", "--config", dir + "/config.json", dir + "/bad.jsonl"});
    INFO(bad.output);
    CHECK(bad.status == 2);
    CHECK_THAT(bad.output, Catch::Contains("cluster"));
  }
}
