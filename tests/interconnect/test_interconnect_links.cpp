// Routing links with bandwidth (seed002 §1.2.1): every DRAM transfer crosses its
// cluster's link into the fabric, and on a NUMA chip a transfer to the other
// cluster's memory also crosses the link between the two clusters' routing nodes.
// Expected cycles are derived from the figures the test config states.
#include <catch2/catch.hpp>

#include <map>
#include <utility>

#include "e2e/NpusimProcess.h"
#include "scheduling/SchedulingRun.h"

using nlohmann::json;

namespace {

// configs/numa-2x2.json (2 clusters of 2 cores, DRAM channel c is cluster c's
// memory) with every figure the derivations below use written out.
struct NumaMachine {
  std::uint64_t hop_latency = 10;
  std::uint64_t dram_bytes_per_cycle = 32;
  std::uint64_t dram_latency = 100;
  std::uint64_t dma_bytes_per_cycle = 64;
  std::uint64_t segment_bytes = 4096;
  std::uint64_t port_bytes_per_cycle = 128;  // NRAM, no access latency
  double cluster_link = 256;
  double inter_cluster_link = 32;
  std::string base = "configs/numa-2x2.json";

  static constexpr std::uint64_t kCoresPerCluster = 2;
  static constexpr std::uint64_t kSliceBytes = 8ULL << 30;  // 16 GiB over 2 channels, not interleaved

  std::string config_json() const {
    return json{{"extends", source_path(base)},
                {"chip",
                 {{"dram", {{"bytes_per_cycle", dram_bytes_per_cycle}, {"latency", dram_latency}}},
                  {"interconnect",
                   {{"hop_latency", hop_latency},
                    {"cluster_link_bytes_per_cycle", cluster_link},
                    {"inter_cluster_link_bytes_per_cycle", inter_cluster_link}}}}},
                {"core",
                 {{"controller", {{"dispatch_cycles", 0}}},
                  {"nram", {{"port_bytes_per_cycle", port_bytes_per_cycle}, {"access_latency", 0}}},
                  {"load_dma",
                   {{"bytes_per_cycle", dma_bytes_per_cycle}, {"setup_cycles", 0}, {"segment_bytes", segment_bytes}}},
                  {"store_dma",
                   {{"bytes_per_cycle", dma_bytes_per_cycle}, {"setup_cycles", 0}, {"segment_bytes", segment_bytes}}}}}}
        .dump(2);
  }

  // One load of `segments` segments alone on its channel, `hops` routing nodes
  // away: the channel (slower than the DMA) streams the segments back to back
  // from when the first request arrives; the last one pays the DRAM latency, the
  // hops back and its NRAM write.
  std::uint64_t lone_load_end(std::uint64_t segments, std::uint64_t hops) const {
    return hops * hop_latency + segments * (segment_bytes / dram_bytes_per_cycle) + dram_latency +
           hops * hop_latency + segment_bytes / port_bytes_per_cycle;
  }
};

json dma(std::uint64_t id, const std::string& op, std::uint64_t core, std::uint64_t dram_offset, std::uint64_t nram_offset,
         std::uint64_t segments) {
  const std::vector<std::uint64_t> shape = {segments, 4096};
  const json dram = tensor("dram", dram_offset, shape), nram = tensor("nram", nram_offset, shape);
  json line = op == "load" ? instruction(id, op, dram, nram) : instruction(id, op, nram, dram);
  line["core"] = core;
  return line;
}

using LinkBytes = std::map<std::string, std::pair<std::uint64_t, std::uint64_t>>;  // name -> (read, written)

// Counted from the trace alone: the cluster of the core, the cluster whose
// memory the DRAM operand lies in, and the direction of the data.
LinkBytes expected_link_bytes(const std::vector<json>& lines) {
  LinkBytes bytes;
  for (const json& line : lines) {
    const bool load = line.at("op") == "load";
    const json& dram = load ? line.at("inputs").at(0) : line.at("outputs").at(0);
    std::uint64_t n = 1;
    for (const auto& d : dram.at("shape")) n *= d.get<std::uint64_t>();
    const std::uint64_t cluster = line.at("core").get<std::uint64_t>() / NumaMachine::kCoresPerCluster;
    const std::uint64_t home = dram.at("offset").get<std::uint64_t>() / NumaMachine::kSliceBytes;
    auto add = [&](const std::string& link) { (load ? bytes[link].first : bytes[link].second) += n; };
    add("interconnect.cluster" + std::to_string(cluster));
    if (home != cluster) add("interconnect.cluster0-cluster1");
  }
  return bytes;
}

LinkBytes reported_link_bytes(const SchedulingRun& run) {
  LinkBytes bytes;
  for (const auto& m : run.report.at("memories"))
    if (m.at("kind") == "link")
      bytes[m.at("name")] = {m.at("bytes_read").get<std::uint64_t>(), m.at("bytes_written").get<std::uint64_t>()};
  return bytes;
}

constexpr std::uint64_t kSegments = 8;
constexpr std::uint64_t kRemote = NumaMachine::kSliceBytes;  // cluster 1's memory

// Core 0 (cluster 0) and core 2 (cluster 1) each load kSegments segments, from
// their own memory or from each other's.
std::vector<json> two_loads(bool remote) {
  return {dma(0, "load", 0, remote ? kRemote : 0, 0, kSegments), dma(1, "load", 2, remote ? 0 : kRemote, 0, kSegments)};
}

}  // namespace

TEST_CASE("interconnect: remote traffic of two clusters contends on the link between them", "[interconnect]") {
  NumaMachine m;
  auto local = run_trace_on("links-local", m.config_json(), two_loads(false));
  auto remote = run_trace_on("links-remote", m.config_json(), two_loads(true));
  NumaMachine wide = m;
  wide.cluster_link = wide.inter_cluster_link = 4096;
  auto remote_wide = run_trace_on("links-remote-wide", wide.config_json(), two_loads(true));
  REQUIRE(local.status == 0);
  REQUIRE(remote.status == 0);
  REQUIRE(remote_wide.status == 0);

  // Local: one hop, nothing shared but the DMA-free fabric.
  for (std::uint64_t id : {0, 1}) CHECK(local.by_id.at(id).end == m.lone_load_end(kSegments, 1));
  // Remote with links too wide to matter: only the extra hop, as before links had a bandwidth.
  for (std::uint64_t id : {0, 1}) CHECK(remote_wide.by_id.at(id).end == m.lone_load_end(kSegments, 2));
  // Remote with the default link: both clusters' data share its bandwidth.
  const std::uint64_t crossing = 2 * kSegments * m.segment_bytes;
  CHECK(remote.total_cycles() > remote_wide.total_cycles());
  CHECK(remote.total_cycles() >= crossing / std::uint64_t(m.inter_cluster_link));
  for (const auto& [name, link] : reported_link_bytes(remote))
    if (name == "interconnect.cluster0-cluster1") CHECK(link.first == crossing);
}

TEST_CASE("interconnect: the report's link bytes are the bytes that crossed each link", "[interconnect]") {
  NumaMachine m;
  // Every combination of direction, locality and cluster, each with its own size.
  const std::vector<json> lines = {
      dma(0, "load", 0, kRemote, 0, 3),           // cluster 0 reads cluster 1's memory
      dma(1, "store", 1, 1 << 20, 0, 2),          // cluster 0 writes its own
      dma(2, "load", 2, kRemote + (1 << 20), 0, 5),  // cluster 1 reads its own
      dma(3, "store", 3, 2 << 20, 0, 1),          // cluster 1 writes cluster 0's
      dma(4, "load", 1, 3 << 20, 65536, 4),       // cluster 0 reads its own
  };
  auto run = run_trace_on("links-bytes", m.config_json(), lines);
  REQUIRE(run.status == 0);
  const LinkBytes expected = expected_link_bytes(lines);
  const LinkBytes reported = reported_link_bytes(run);
  CHECK(reported.size() == 3);  // two cluster links and the one between them
  for (const auto& [name, bytes] : reported) {
    INFO(name);
    const auto it = expected.find(name);
    REQUIRE(it != expected.end());
    CHECK(bytes == it->second);
  }
  // Every link row has the port fields sweeps and diffs read.
  for (const auto& mem : run.report.at("memories"))
    if (mem.at("kind") == "link") {
      CHECK(mem.at("busy_cycles").get<std::uint64_t>() > 0);
      CHECK(mem.at("bandwidth_utilization").get<double>() > 0);
    }
}

TEST_CASE("interconnect: on an SMP chip the cores of one cluster share their cluster's link", "[interconnect]") {
  NumaMachine m;
  m.base = "configs/smp-2x2.json";  // no inter-cluster link, every memory two hops away
  m.cluster_link = 32;
  const auto pair = [](std::uint64_t second_core) {
    return std::vector<json>{dma(0, "load", 0, 0, 0, kSegments), dma(1, "load", second_core, 1 << 20, 0, kSegments)};
  };
  auto same_cluster = run_trace_on("links-smp-same", m.config_json(), pair(1));
  auto two_clusters = run_trace_on("links-smp-split", m.config_json(), pair(2));
  REQUIRE(same_cluster.status == 0);
  REQUIRE(two_clusters.status == 0);
  CHECK(same_cluster.total_cycles() > two_clusters.total_cycles());
  CHECK(same_cluster.total_cycles() >= 2 * kSegments * m.segment_bytes / std::uint64_t(m.cluster_link));
  for (const auto& [name, bytes] : reported_link_bytes(same_cluster)) {
    INFO(name);
    CHECK(name.find('-') == std::string::npos);  // SMP: cluster links only
    CHECK(bytes.first == (name == "interconnect.cluster0" ? 2 * kSegments * m.segment_bytes : 0));
  }
}
