// The off-core cache of a cluster (seed002 shared-cache type) as trace space
// "cluster": core 0 leaves relu(x) there, core 1 of the same cluster picks it up
// without touching DRAM; core 2 sits in the other cluster and sees its own cache.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "sim/tensor/Npy.h"

namespace {

const nlohmann::json* memory(const nlohmann::json& report, const std::string& name) {
  for (const auto& m : report.at("memories"))
    if (m.at("name") == name) return &m;
  return nullptr;
}

}  // namespace

TEST_CASE("cluster cache: a core hands data to its cluster neighbour through the shared cache", "[e2e][cluster_cache]") {
  const std::string dir = scratch_dir("cluster-cache");
  // The bundled example plus core 2 (cluster 1) reading the same cluster offset into z.
  std::string trace = read_text(source_path("traces/examples/cluster-handoff.jsonl"));
  auto header = nlohmann::json::parse(trace.substr(0, trace.find('\n')));
  header["outputs"].push_back({{"name", "z"}, {"space", "dram"}, {"offset", 32768}, {"shape", {1, 16, 16, 32}},
                               {"dtype", "int8"}});
  trace = header.dump() + trace.substr(trace.find('\n')) +
          R"({"id":5,"op":"load","core":2,"inputs":[{"space":"cluster","offset":0,"shape":[1,16,16,32],"dtype":"int8"}],"outputs":[{"space":"nram","offset":0,"shape":[1,16,16,32],"dtype":"int8"}],"deps":[2]})"
          "\n"
          R"({"id":6,"op":"store","core":2,"inputs":[{"space":"nram","offset":0,"shape":[1,16,16,32],"dtype":"int8"}],"outputs":[{"space":"dram","offset":32768,"shape":[1,16,16,32],"dtype":"int8"}],"deps":[5]})"
          "\n";
  write_text(dir + "/trace.jsonl", trace);
  auto r = run_npusim({"run", "--quiet", "--functional", "--config", source_path("configs/smp-2x2-cache.json"),
                       "--trace", dir + "/trace.jsonl", "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);

  const auto x = npusim::read_npy(dir + "/run/tensors/x.npy");
  const auto y = npusim::read_npy(dir + "/run/tensors/y.npy");
  const auto z = npusim::read_npy(dir + "/run/tensors/z.npy");
  REQUIRE(y.data.size() == x.data.size());
  std::size_t negatives = 0;
  for (std::size_t i = 0; i < x.data.size(); ++i) {
    const auto v = static_cast<std::int8_t>(x.data[i]);
    negatives += v < 0;
    REQUIRE(static_cast<std::int8_t>(y.data[i]) == (v < 0 ? 0 : v));
    REQUIRE(z.data[i] == 0);  // cluster 1's cache was never written
  }
  CHECK(negatives > 0);

  const auto report = nlohmann::json::parse(read_text(dir + "/run/report.json"));
  const std::uint64_t bytes = 16 * 16 * 32;
  const auto* own = memory(report, "cluster0.cache");
  const auto* other = memory(report, "cluster1.cache");
  REQUIRE(own);
  REQUIRE(other);
  CHECK(own->at("kind") == "cache");
  CHECK(own->at("bytes_written") == bytes);
  CHECK(own->at("bytes_read") == bytes);
  CHECK(other->at("bytes_read") == bytes);
  CHECK(other->at("bytes_written") == 0);
  // DRAM carries only x in and y, z out: the handoff itself stays on chip.
  std::uint64_t dram_read = 0, dram_written = 0;
  for (const auto& ch : report.at("dram_channels")) {
    dram_read += ch.at("bytes_read").get<std::uint64_t>();
    dram_written += ch.at("bytes_written").get<std::uint64_t>();
  }
  CHECK(dram_read == bytes);
  CHECK(dram_written == 2 * bytes);
}

TEST_CASE("cluster cache: the cluster space is an error on a chip without one", "[e2e][cluster_cache]") {
  auto r = run_npusim({"validate", source_path("traces/examples/cluster-handoff.jsonl"), "--config",
                       source_path("configs/smp-2x2.json")});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("line 1, field 'outputs[2]'") &&
                           Catch::Contains("this chip has no cluster cache; set /chip/cluster_cache/enabled"));
}
