// Reads the cores of a layer share (issue 32, seed002 §3.9): with a fabric that can
// multicast, a data-parallel layer's weight blocks cross DRAM once however many cores
// run it; without, every core reads them and the report says so. On a NUMA chip the
// compiler spreads what the clusters read over every channel.
#include <catch2/catch.hpp>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

namespace {

struct Run {
  nlohmann::json report;
  std::uint64_t dram_read = 0;
  std::vector<std::uint64_t> channel_busy;
};

Run run(const std::string& dir, const std::string& network, const std::string& config,
        const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"run", "--quiet", "--workload", source_path("traces/workloads/" + network + ".json"),
                                   "--config", config, "--out", dir};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_npusim(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
  Run out;
  out.report = nlohmann::json::parse(read_text(dir + "/report.json"));
  for (const auto& m : out.report.at("memories"))
    if (m.at("kind") == "dram_channel") {
      out.dram_read += m.at("bytes_read").get<std::uint64_t>();
      out.channel_busy.push_back(m.at("busy_cycles").get<std::uint64_t>());
    }
  return out;
}

std::string shipped(const std::string& name) { return source_path("configs/" + name + ".json"); }

// A shipped config with the fabric's multicast turned off.
std::string without_multicast(const std::string& dir, const std::string& name) {
  const std::string path = dir + "/" + name + "-no-multicast.json";
  write_text(path, nlohmann::json{{"extends", shipped(name)}, {"chip", {{"interconnect", {{"multicast", false}}}}}}.dump());
  return path;
}

}  // namespace

TEST_CASE("shared reads: ResNet-50 --split data on 16 cores reads at most 1.3x the DRAM bytes of one core",
          "[compiler][shared_reads]") {
  const std::string dir = scratch_dir("shared-reads-resnet50");
  const Run one = run(dir + "/one", "resnet50", shipped("default"), {"--split", "data"});
  const Run sixteen = run(dir + "/sixteen", "resnet50", shipped("smp-4x4"), {"--split", "data"});
  const Run apart = run(dir + "/apart", "resnet50", without_multicast(dir, "smp-4x4"), {"--split", "data"});
  CHECK(sixteen.dram_read <= one.dram_read * 13 / 10);
  CHECK(apart.dram_read > 4 * one.dram_read);  // every core reads every block
  CHECK(sixteen.report.at("total_cycles").get<std::uint64_t>() < one.report.at("total_cycles").get<std::uint64_t>());
}

TEST_CASE("shared reads: each layer's report says how its cores got the weights", "[compiler][shared_reads]") {
  const std::string dir = scratch_dir("shared-reads-report");
  const Run shared = run(dir + "/shared", "tiny", shipped("smp-2x2"), {"--split", "data"});
  const Run apart = run(dir + "/apart", "tiny", without_multicast(dir, "smp-2x2"), {"--split", "data"});
  const Run one = run(dir + "/one", "tiny", shipped("default"), {"--split", "data"});
  std::uint64_t copied = 0;
  for (const auto& row : shared.report.at("workload").at("rows")) {
    const auto& reads = row.at("split").at("shared_reads");
    copied += reads.at("multicast_cluster_bytes").get<std::uint64_t>() + reads.at("multicast_core_bytes").get<std::uint64_t>();
    if (row.at("split").at("mode") == "data" && row.at("kind") == "conv")
      CHECK(reads.at("weights").get<std::string>().find("one DRAM read per weight block") == 0);
  }
  CHECK(copied > 0);
  for (const auto& row : apart.report.at("workload").at("rows")) {
    const auto& reads = row.at("split").at("shared_reads");
    CHECK(reads.at("multicast_cluster_bytes") == 0);
    if (row.at("split").at("mode") == "data" && row.at("kind") == "conv")
      CHECK(reads.at("weights").get<std::string>().find("/chip/interconnect/multicast is false") != std::string::npos);
  }
  // The copies are exactly the DRAM reads the shared run saved.
  CHECK(apart.dram_read - shared.dram_read == copied);
  // One core shares nothing, and its report has no such field.
  for (const auto& row : one.report.at("workload").at("rows")) CHECK(!row.at("split").contains("shared_reads"));
}

TEST_CASE("shared reads: a 16-core NUMA chip keeps its channels within 10 % of each other on ResNet-50",
          "[compiler][shared_reads][heavy]") {
  const std::string dir = scratch_dir("shared-reads-numa");
  const Run numa = run(dir + "/numa", "resnet50", shipped("numa-4x4"));
  const auto [least, most] = std::minmax_element(numa.channel_busy.begin(), numa.channel_busy.end());
  CHECK(double(*most) <= 1.10 * double(*least));  // 1.20 when each cluster's rows stayed in its own memory
}

// The hazard checker runs on every run: copies that started before the bytes they copy
// left DRAM, or bands a core copied over data its neighbour still reads, would stop it.
TEST_CASE("shared reads: multicast copies run under every dependency mode without a hazard", "[compiler][shared_reads][heavy]") {
  const std::string dir = scratch_dir("shared-reads-modes");
  for (const char* config : {"smp-4x4", "numa-2x2-cache"})
    for (const char* split : {"data", "model-co", "auto"})
      for (const char* mode : {"full", "two_phase", "staged"}) {
        INFO(config << ", --split " << split << ", --dependency-mode " << mode);
        const Run r = run(dir + "/" + config + "-" + split + "-" + mode, "mobilenetv2", shipped(config),
                          {"--split", split, "--dependency-mode", mode});
        std::uint64_t copied = 0;
        for (const auto& row : r.report.at("workload").at("rows"))
          copied += row.at("split").at("shared_reads").at("multicast_core_bytes").get<std::uint64_t>();
        CHECK(copied > 0);
      }
}
