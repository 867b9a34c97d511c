// seed002 Examples 1 and 2 (§4.1, §4.2; §6.3 golden cases 6 and 7): the MLP O = I x W
// with I 1x1024 and W 1024x4, split along the reduction dimension over multi-core
// processor 1 (2 clusters x 2 cores, 2 memories, off-core caches) and processor 2
// (the same without caches). The compiled trace is checked event by event against the
// text (seed cores 1-4 are npusim cores 0-3, memory k is DRAM channel k-1, off-core
// cache k is the cache of cluster k-1), and a functional run gives O7 = I x W exactly.
#include <catch2/catch.hpp>

#include <cstring>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/ReferenceLayers.h"
#include "e2e/NpusimProcess.h"
#include "sim/tensor/Npy.h"

namespace {

using Json = nlohmann::json;
constexpr std::uint64_t kMemory = 8589934592;  // 16 GiB over 2 channels: memory 2 starts here

std::string place(const Json& t) {
  const std::string space = t.at("space");
  if (space == "dram") return fmt::format("memory{}", t.at("offset").get<std::uint64_t>() / kMemory + 1);
  if (space == "cluster") return fmt::format("cache{}", t.at("cluster").get<int>() + 1);
  return space;
}

// "op coreN from->to" for the data movements, "op coreN" for compute.
std::string event(const Json& i) {
  std::string e = fmt::format("{} core{}", i.at("op").get<std::string>(), i.at("core").get<int>() + 1);
  if (i.at("op") == "load" || i.at("op") == "store")
    e += " " + place(i.at("inputs")[0]) + "->" + place(i.at("outputs")[0]);
  return e;
}

struct Example {
  std::string dir;
  std::vector<Json> trace;  // instructions, header first
};

Example compile_example(const std::string& name, const std::string& config) {
  Example ex{scratch_dir(name), {}};
  write_text(ex.dir + "/mlp.json",
             R"({"name":"example","batch":1,"seed":5,"input":{"h":1,"w":1,"c":1024},"layers":[{"name":"O","type":"fc","n":4}]})");
  auto r = run_npusim({"compile", "--quiet", "--workload", ex.dir + "/mlp.json", "--config",
                       source_path("configs/" + config), "--split", "model-ci", "-o", ex.dir + "/mlp.jsonl"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::istringstream lines(read_text(ex.dir + "/mlp.jsonl"));
  for (std::string line; std::getline(lines, line);) ex.trace.push_back(Json::parse(line));
  return ex;
}

// Phase 1: core k reads its quarter of I and W from the memory of its cluster and
// multiplies them into its own NRAM (int32: the partial sum is not requantized).
void check_phase1(const Example& ex) {
  for (int core = 0; core < 4; ++core) {
    INFO("core " << core + 1);
    std::vector<std::string> events;
    for (std::size_t i = 1; i < ex.trace.size(); ++i)
      if (ex.trace[i].at("core") == core && ex.trace[i].at("op") != "store" &&
          (ex.trace[i].at("op") != "load" || ex.trace[i].at("inputs")[0].at("space") == "dram"))
        events.push_back(event(ex.trace[i]));
    const std::string memory = core < 2 ? "memory1" : "memory2";
    REQUIRE(events.size() >= 3);
    CHECK(events[0] == "load core" + std::to_string(core + 1) + " " + memory + "->wram");  // W_k
    CHECK(events[1] == "load core" + std::to_string(core + 1) + " " + memory + "->nram");  // I_k
    CHECK(events[2] == "conv core" + std::to_string(core + 1));
  }
  for (std::size_t i = 1; i < ex.trace.size(); ++i) {
    const Json& in = ex.trace[i];
    if (in.at("op") == "conv") {
      CHECK(in.at("outputs")[0].at("dtype") == "int32");
      CHECK_FALSE((in.contains("params") && in.at("params").contains("shift")));
      CHECK(in.at("inputs")[0].at("shape") == Json::array({1, 1, 1, 256}));  // I1..I4: 256 channels each
    }
    if (in.at("op") == "load" && in.at("outputs")[0].at("space") == "wram") {
      CHECK(in.at("inputs")[0].at("shape") == Json::array({4, 1, 1, 256}));  // W1..W4: the c split of W
      CHECK(in.at("inputs")[0].at("pitch") == 1024);
    }
  }
}

// Phases 2 and 3: every event after the last conv, in program order.
std::vector<std::string> reduction_events(const Example& ex) {
  std::size_t last_conv = 0;
  for (std::size_t i = 1; i < ex.trace.size(); ++i)
    if (ex.trace[i].at("op") == "conv") last_conv = i;
  std::vector<std::string> events;
  for (std::size_t i = last_conv + 1; i < ex.trace.size(); ++i) events.push_back(event(ex.trace[i]));
  return events;
}

// O7 before requantization (core 1's sums after the last add) and after (O in DRAM)
// against I x W from the run's own input and weights.
void check_o7(const Example& ex) {
  Json header = ex.trace[0];
  std::uint64_t sums = 0;
  for (const Json& in : ex.trace)
    if (in.value("op", "") == "add" && in.at("core") == 0) sums = in.at("outputs")[0].at("offset");
  header["outputs"].push_back(
      {{"name", "O7"}, {"space", "nram"}, {"core", 0}, {"offset", sums}, {"shape", {1, 1, 1, 4}}, {"dtype", "int32"}});
  std::string text = header.dump() + "\n";
  for (std::size_t i = 1; i < ex.trace.size(); ++i) text += ex.trace[i].dump() + "\n";
  write_text(ex.dir + "/o7.jsonl", text);
  auto r = run_npusim({"run", "--quiet", "--functional", "--trace", ex.dir + "/o7.jsonl", "--config",
                       source_path("configs/numa-2x2-cache.json"), "--out", ex.dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto I = npusim::read_npy(ex.dir + "/run/tensors/input.npy").data;
  const auto W = npusim::read_npy(ex.dir + "/run/tensors/O.weights.npy").data;  // [4, 1, 1, 1024]
  const auto o7 = npusim::read_npy(ex.dir + "/run/tensors/O7.npy");
  const auto o = npusim::read_npy(ex.dir + "/run/tensors/O.npy").data;
  REQUIRE(I.size() == 1024);
  REQUIRE(W.size() == 4096);
  REQUIRE(o7.data.size() == 16);
  const std::uint32_t shift = npusim::default_requant_shift(1024);
  for (int n = 0; n < 4; ++n) {
    std::int64_t dot = 0;
    for (int c = 0; c < 1024; ++c) dot += std::int64_t(std::int8_t(I[c])) * std::int8_t(W[n * 1024 + c]);
    std::int32_t got;
    std::memcpy(&got, o7.data.data() + 4 * n, 4);
    INFO("O[" << n << "]");
    CHECK(got == dot);
    CHECK(std::int8_t(o[n]) == npusim::layer_reference::requant(dot, shift, false));
  }
}

}  // namespace

TEST_CASE("seed002 Example 1: O1-O6 through NRAM and the off-core caches, O7 in memory 1, O7 = I x W",
          "[seed002][split]") {
  const Example ex = compile_example("seed002-example1", "numa-2x2-cache.json");
  check_phase1(ex);
  CHECK(reduction_events(ex) == std::vector<std::string>{
                                    // Phase 2: core 2 leaves O2 in off-core cache 1, core 1 adds it to O1: O5 in its NB
                                    "store core2 nram->cache1", "load core1 cache1->nram", "add core1",
                                    // core 4 leaves O4 in off-core cache 2, core 3 adds it to O3: O6
                                    "store core4 nram->cache2", "load core3 cache2->nram", "add core3",
                                    // Phase 3: core 3 writes O6 to off-core cache 2; core 1 reads it from there
                                    "store core3 nram->cache2", "load core1 cache2->nram", "add core1",
                                    // O7 = O5 + O6, requantized, to memory 1
                                    "requant core1", "store core1 nram->memory1"});
  check_o7(ex);
}

TEST_CASE("seed002 Example 2: without caches O2 and O4 go to memories 1 and 2, O6 to memory 2, O7 to memory 1",
          "[seed002][split]") {
  const Example ex = compile_example("seed002-example2", "numa-2x2.json");
  check_phase1(ex);
  CHECK(reduction_events(ex) == std::vector<std::string>{"store core2 nram->memory1", "load core1 memory1->nram",
                                                         "add core1", "store core4 nram->memory2",
                                                         "load core3 memory2->nram", "add core3",
                                                         "store core3 nram->memory2", "load core1 memory2->nram",
                                                         "add core1", "requant core1", "store core1 nram->memory1"});
}

// §3.10 on the compiled Example 1: one packet per core; core k's constant segment holds
// filter block k (W_k: 4 x 256 int8 = 1024 bytes) at offset 0, its address segment the
// input and output address of the layer at offsets 0 and 8.
TEST_CASE("seed002 §3.10: the compiled Example 1 packs W_k for core k, addresses at offsets 0 and 8",
          "[seed002][split]") {
  const std::string dir = scratch_dir("seed002-packets");
  write_text(dir + "/mlp.json",
             R"({"name":"example","batch":1,"input":{"h":1,"w":1,"c":1024},"layers":[{"name":"O","type":"fc","n":4}]})");
  auto r = run_npusim({"run", "--quiet", "--workload", dir + "/mlp.json", "--config",
                       source_path("configs/numa-2x2-cache.json"), "--split", "model-ci", "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const Json packets = Json::parse(read_text(dir + "/run/report.json")).at("workload").at("constant_packets");
  REQUIRE(packets.size() == 4);
  for (int k = 0; k < 4; ++k) {
    INFO("core " << k + 1);
    const Json& p = packets[k];
    CHECK(p.at("core") == k);
    CHECK(p.at("constants").at("total_bytes") == 1024);
    CHECK(p.at("constants").at("entries") ==
          Json::parse(fmt::format(R"([{{"name":"O weights block {}","bytes":1024,"offset":0}}])", k + 1)));
    CHECK(p.at("addresses").at("entries") ==
          Json::parse(R"([{"name":"O input address","bytes":8,"offset":0},{"name":"O output address","bytes":8,"offset":8}])"));
    CHECK(p.at("addresses").at("total_bytes") == 16);
  }
}
