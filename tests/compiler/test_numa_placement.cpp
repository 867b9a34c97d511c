// NUMA-aware placement (seed002 §3.4): tensors in the memory of the cluster that uses
// them, bindings laid out in chunks, and the NUMA chip no slower than the SMP one.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "sim/tensor/Npy.h"

namespace {

nlohmann::json run_tiny(const std::string& dir, const std::string& config, bool functional) {
  std::vector<std::string> args = {"run", "--quiet", "--workload", source_path("traces/workloads/tiny.json"),
                                   "--config", source_path("configs/" + config), "--out", dir};
  if (functional) args.push_back("--functional");
  auto r = run_npusim(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(read_text(dir + "/report.json"));
}

}  // namespace

TEST_CASE("trace bindings in chunks: the data goes piece by piece and comes back whole", "[numa][trace]") {
  const std::string dir = scratch_dir("binding-chunks");
  // x: 16 bytes, the first 8 at 0 and the last 8 at 1 MiB; the two loads bring them
  // together in NRAM and the store writes them densely to y.
  write_text(dir + "/t.jsonl",
             R"({"format":"npusim-trace","version":1,"inputs":[{"name":"x","space":"dram","offset":0,"shape":[16],"dtype":"int8","random_seed":3,"chunks":[[0,8],[1048576,8]]}],"outputs":[{"name":"y","space":"dram","offset":4096,"shape":[16],"dtype":"int8"},{"name":"x2","space":"dram","offset":0,"shape":[2,8],"dtype":"int8","chunks":[[0,8],[1048576,8]]}]})"
             "\n"
             R"({"id":0,"op":"load","inputs":[{"space":"dram","offset":0,"shape":[8],"dtype":"int8"}],"outputs":[{"space":"nram","offset":0,"shape":[8],"dtype":"int8"}]})"
             "\n"
             R"({"id":1,"op":"load","inputs":[{"space":"dram","offset":1048576,"shape":[8],"dtype":"int8"}],"outputs":[{"space":"nram","offset":8,"shape":[8],"dtype":"int8"}]})"
             "\n"
             R"({"id":2,"op":"store","inputs":[{"space":"nram","offset":0,"shape":[16],"dtype":"int8"}],"outputs":[{"space":"dram","offset":4096,"shape":[16],"dtype":"int8"}],"deps":[0,1]})"
             "\n");
  auto r = run_npusim({"run", "--quiet", "--functional", "--trace", dir + "/t.jsonl", "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto x = npusim::read_npy(dir + "/run/tensors/y.npy").data;
  CHECK(npusim::read_npy(dir + "/run/tensors/x2.npy").data == x);
  std::size_t nonzero = 0;
  for (auto b : x) nonzero += b != 0;
  CHECK(nonzero > 8);  // random data, not an untouched region

  // Chunks that do not add up to the tensor, or on a scratchpad, are refused.
  for (const char* header :
       {R"({"format":"npusim-trace","version":1,"outputs":[{"name":"y","space":"dram","offset":0,"shape":[16],"dtype":"int8","chunks":[[0,8],[64,4]]}]})",
        R"({"format":"npusim-trace","version":1,"outputs":[{"name":"y","space":"nram","offset":0,"shape":[16],"dtype":"int8","chunks":[[0,16]]}]})",
        R"({"format":"npusim-trace","version":1,"outputs":[{"name":"y","space":"dram","offset":0,"shape":[16],"dtype":"int8","chunks":[[0,0]]}]})"}) {
    write_text(dir + "/bad.jsonl", std::string(header) + "\n");
    auto bad = run_npusim({"validate", dir + "/bad.jsonl"});
    INFO(bad.output);
    CHECK(bad.status == 2);
    CHECK_THAT(bad.output, Catch::Contains("chunks"));
  }
}

TEST_CASE("tiny.json on NUMA: tensors placed by cluster, identical results, no slower than SMP", "[numa][compiler]") {
  const std::string dir = scratch_dir("numa-tiny");
  const auto smp = run_tiny(dir + "/smp", "smp-2x2.json", true);
  const auto numa = run_tiny(dir + "/numa", "numa-2x2.json", true);
  for (const auto& row : numa.at("workload").at("rows")) {
    const std::string name = row.at("name");
    INFO(name);
    CHECK(npusim::read_npy(dir + "/numa/tensors/" + name + ".npy").data ==
          npusim::read_npy(dir + "/smp/tensors/" + name + ".npy").data);
  }
  CHECK(numa.at("total_cycles").get<std::uint64_t>() <= smp.at("total_cycles").get<std::uint64_t>());
  // Both memories carry traffic: the tensors are not all packed into channel 0.
  for (const auto& channel : numa.at("dram_channels")) CHECK(channel.at("bytes_read").get<std::uint64_t>() > 0);
}

// A tensor a single cluster reads (BERT's attention context, read whole by every core) sat
// in one memory, leaving the other channel idle; the layout rule (RunLayout.h) spreads
// it when that keeps the busiest channel or link shorter. Timing only, about 0.2 s a run.
TEST_CASE("NUMA placement: BERT-base (2 layers) on numa-2x2 is no slower than on smp-2x2", "[numa][compiler]") {
  const std::string dir = scratch_dir("numa-bert-2l");
  auto cycles = [&](const std::string& config) {
    auto r = run_npusim({"run", "--quiet", "--workload", source_path("traces/workloads/bert-base-2l.json"), "--config",
                         source_path("configs/" + config), "--out", dir + "/" + config});
    INFO(r.output);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(read_text(dir + "/" + config + "/report.json")).at("total_cycles").get<std::uint64_t>();
  };
  CHECK(cycles("numa-2x2.json") <= cycles("smp-2x2.json"));
}
