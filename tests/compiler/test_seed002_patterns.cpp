// seed002 §3.8's operation tasks, as npusim's modes carry them out (our reading, in
// configs/split-strategies/README.md, "The §3.8 patterns"): the compiled trace is checked
// for which core computes which pieces, which pieces move between cores and through what,
// and which core combines.
//   B (exchange on the input weight) = data mode over two or more weight blocks: every core
//     keeps its own input piece (its images) and computes it with one weight piece (block)
//     and then another (the "third target data"); each block is read from DRAM once and
//     reaches the other cores as a copy over the routing fabric (the exchange); each core's
//     results for the blocks are combined into its rows of the output (concatenation along
//     the channels: §3.8 leaves the operation open).
//   C (exchange on the input and the output neuron) = hybrid-ci: every core keeps one
//     weight piece (its input channels) and computes it with one input piece (a band of
//     its cluster's run) and then another (the "fourth target data"), each result kept in
//     its own NRAM; the cluster's cores then reduce as in A: core 2 of a cluster hands its
//     sums to core 1 (the first core) through the cluster's cache, which adds them and
//     stores the output rows; nothing crosses clusters.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

namespace {

using Json = nlohmann::json;

std::vector<Json> compile(const std::string& name, const std::string& workload, const std::string& config,
                          const std::string& split) {
  const std::string dir = scratch_dir(name);
  write_text(dir + "/w.json", workload);
  write_text(dir + "/chip.json", config);
  auto r = run_npusim({"compile", "--quiet", "--workload", dir + "/w.json", "--config", dir + "/chip.json", "--split",
                       split, "-o", dir + "/t.jsonl"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::vector<Json> trace;
  std::istringstream lines(read_text(dir + "/t.jsonl"));
  for (std::string line; std::getline(lines, line);) trace.push_back(Json::parse(line));
  return trace;
}

bool is(const Json& i, const char* op) { return i.value("op", "") == op; }
std::string space(const Json& t) { return t.at("space"); }

}  // namespace

TEST_CASE("seed002 §3.8 B: each core computes its own input piece with two weight pieces, each piece is read once "
          "and copied to the others", "[seed002][patterns]") {
  // Four images of a 64-channel map through a 3x3 conv to 64 channels (36 KiB of weights); 20 KiB of WRAM.
  const auto trace = compile("pattern-b", R"({"batch": 4, "input": {"h": 8, "w": 8, "c": 64},
      "layers": [{"name": "o", "type": "conv", "co": 64, "k": 3, "padding": 1}]})",
                             fmt::format(R"({{"extends": "{}", "core": {{"wram": {{"capacity_bytes": 20480}}}}}})",
                                         source_path("configs/smp-2x2.json")),
                             "data");
  std::map<int, std::set<std::uint64_t>> inputs;   // per core: the NRAM regions its convs read
  std::map<int, std::vector<std::uint64_t>> blocks;  // per core: the weight loads' DRAM offsets, in order
  std::map<std::uint64_t, int> reads, copies;        // per block offset: DRAM reads and fabric copies
  for (std::size_t k = 1; k < trace.size(); ++k) {
    const Json& i = trace[k];
    const int core = i.at("core");
    if (is(i, "load") && space(i.at("outputs")[0]) == "wram") {
      const std::uint64_t at = i.at("inputs")[0].at("offset");
      blocks[core].push_back(at);
      (i.contains("params") && i.at("params").contains("multicast") ? copies : reads)[at]++;
    }
  }
  REQUIRE(blocks.size() == 4);
  for (const auto& [core, list] : blocks) {
    INFO("core " << core);
    CHECK(list.size() >= 2);  // its own piece, then a third target data (and more)
    CHECK(std::set<std::uint64_t>(list.begin(), list.end()).size() == list.size());  // each a different piece
  }
  for (const auto& [block, n] : reads) {
    INFO("weight block at " << block);
    CHECK(n == 1);               // one DRAM read per piece
    CHECK(copies[block] == 3);   // the exchange: three copies, one per other core
  }
}

TEST_CASE("seed002 §3.8 C: each core computes one weight piece with two input pieces, the first core of its "
          "cluster combines through the cluster's cache", "[seed002][patterns]") {
  const auto trace = compile("pattern-c", R"({"batch": 4, "input": {"h": 1, "w": 1, "c": 1024},
      "layers": [{"name": "o", "type": "fc", "n": 64}]})",
                             fmt::format(R"({{"extends": "{}"}})", source_path("configs/smp-2x2-cache.json")),
                             "hybrid-ci");
  std::map<int, std::set<std::uint64_t>> weight_loads;  // per core: WRAM loads (its one weight piece)
  std::map<int, int> convs;                              // per core: computations (one per input piece)
  std::vector<std::string> exchanges;                    // "from->to via" of partial sums
  for (std::size_t k = 1; k < trace.size(); ++k) {
    const Json& i = trace[k];
    const int core = i.at("core");
    if (is(i, "load") && space(i.at("outputs")[0]) == "wram") weight_loads[core].insert(i.at("inputs")[0].at("offset").get<std::uint64_t>());
    if (is(i, "conv")) convs[core]++;
    if (is(i, "store") && space(i.at("outputs")[0]) == "cluster")
      exchanges.push_back(fmt::format("{}->cache{}", core, i.at("outputs")[0].value("cluster", core / 2)));
    if (is(i, "load") && space(i.at("inputs")[0]) == "cluster")
      exchanges.push_back(fmt::format("cache{}->{}", i.at("inputs")[0].value("cluster", core / 2), core));
  }
  for (int core = 0; core < 4; ++core) {
    INFO("core " << core);
    CHECK(weight_loads[core].size() == 1);  // one weight piece: its half of the input channels
    CHECK(convs[core] == 2);                // two input pieces: the images of its cluster's run
  }
  // Per band: core 1 -> cache 0 -> core 0, core 3 -> cache 1 -> core 2; nothing else.
  const std::vector<std::string> want = {"1->cache0", "cache0->0", "3->cache1", "cache1->2",
                                         "1->cache0", "cache0->0", "3->cache1", "cache1->2"};
  CHECK(exchanges == want);
}
