// seed001 ¶84 (issue 47): a sparse layer's output handed over compute interconnect 920 to
// the next sparse layer's units. The run with the hand-off moves exactly the bytes it
// reports as skipped less through DRAM than the same run storing and reloading the map,
// and gives the same tensors.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

namespace fs = std::filesystem;

namespace {

struct HandOffRun {
  nlohmann::json report;
  std::map<std::string, std::string> tensors;
  std::uint64_t dram = 0, fm_loads = 0;
};

// a (3x3, 8 -> 8) feeds b (1x1, 8 -> 4) on a cluster of 4 units with a Benes 920.
HandOffRun run_pair(const std::string& dir, bool hand_off) {
  write_text(dir + "/w.json",
             R"({"input":{"h":12,"w":10,"c":8},"layers":[)"
             R"({"name":"a","type":"conv","co":8,"k":3,"padding":1,"relu":true,"engine":"sparse","activation_sparsity":0.5,"weight_sparsity":0.5},)"
             R"({"name":"b","type":"conv","co":4,"k":1,"relu":true,"engine":"sparse","activation_sparsity":0.5,"weight_sparsity":0.5}]})");
  const std::string chip = fmt::format("{}/chip-{}.json", dir, hand_off);
  write_text(chip, fmt::format(R"({{"extends":"{}","core":{{"sparse":{{"units":4,"compute_interconnect":"benes",)"
                               R"("hand_off":{}}}}}}})",
                               source_path("configs/sparse.json"), hand_off));
  const std::string out = fmt::format("{}/run-{}", dir, hand_off);
  const auto r = run_npusim({"run", "--quiet", "--functional", "--workload", dir + "/w.json", "--config", chip, "--out", out});
  INFO(r.output);
  REQUIRE(r.status == 0);
  HandOffRun run;
  run.report = nlohmann::json::parse(read_text(out + "/report.json"));
  for (const auto& e : fs::directory_iterator(out + "/tensors")) run.tensors[e.path().filename()] = read_text(e.path());
  for (const auto& ch : run.report.at("dram_channels"))
    run.dram += ch.at("bytes_read").get<std::uint64_t>() + ch.at("bytes_written").get<std::uint64_t>();
  for (const auto& [name, counters] : run.report.at("stats").items())
    if (name.find(".fm_memory") != std::string::npos)
      run.fm_loads += counters.at("value_bytes").get<std::uint64_t>() + counters.at("index_bytes").get<std::uint64_t>();
  return run;
}

}  // namespace

TEST_CASE("hand-off (seed001 ¶84): the skipped bytes are a's compressed output and b's loads, and DRAM moves that "
          "much less",
          "[sparse][hand_off][e2e]") {
  const std::string dir = scratch_dir("hand-off");
  const HandOffRun stored = run_pair(dir, false), handed = run_pair(dir, true);
  CHECK(handed.tensors == stored.tensors);
  const auto& cluster = handed.report.at("stats").at("core0.sparse");
  const std::uint64_t skipped = cluster.at("dram_bytes_skipped");
  CHECK(stored.report.at("stats").at("core0.sparse").at("dram_bytes_skipped") == 0);
  // a stores its compressed map in the stored run; b loads its windows back (halo rows twice
  // would show here: a 1x1 reader has none, so b loads each byte once).
  const std::uint64_t a_output = stored.report.at("stats").at("core0.sparse").at("output_compressed_bytes");
  const std::uint64_t b_loads = stored.fm_loads - handed.fm_loads;
  CHECK(b_loads == a_output);
  CHECK(skipped == a_output + b_loads);
  CHECK(stored.dram - handed.dram == skipped);
  // What did not go through DRAM went over 920, apart from each unit's own piece.
  const auto& net = handed.report.at("stats").at("core0.sparse.compute_interconnect");
  CHECK(net.at("handoff_bytes").get<std::uint64_t>() <= b_loads);
  CHECK(net.at("handoff_sends").get<std::uint64_t>() > 0);
  // The layers' rows name it too.
  std::uint64_t per_layer = 0;
  for (const auto& row : handed.report.at("sparse_layers")) per_layer += row.value("dram_bytes_skipped", 0ull);
  CHECK(per_layer == skipped);
}
