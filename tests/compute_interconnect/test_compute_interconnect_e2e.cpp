// The compute interconnect 920 as users run it (issue 31): a chain of sparse layers in
// functional mode gives the same bytes with none, 2x2 and benes; the timing run with
// one fitted reports its border traffic; a port count it cannot serve exits 2 naming
// /core/sparse/compute_interconnect.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

std::string linked_config(const std::string& dir, const std::string& link) {
  const std::string path = dir + "/c-" + link + ".json";
  write_text(path, fmt::format(R"({{"extends":"{}","core":{{"sparse":{{"compute_interconnect":"{}","min_ports":128}}}}}})",
                               source_path("configs/sparse.json"), link));
  return path;
}

// Three sparse layers: 3x3, 5x5 stride 2, 1x1, each on the cluster.
std::string chain_workload(const std::string& dir) {
  write_text(dir + "/w.json",
             R"({"input":{"h":23,"w":19,"c":6},"layers":[)"
             R"({"name":"a","type":"conv","co":8,"k":3,"padding":1,"engine":"sparse","activation_sparsity":0.6,"weight_sparsity":0.5},)"
             R"({"name":"b","type":"conv","co":7,"k":5,"stride":2,"padding":2,"engine":"sparse","activation_sparsity":0.5,"weight_sparsity":0.7},)"
             R"({"name":"c","type":"conv","co":5,"k":1,"engine":"sparse","activation_sparsity":0.5,"weight_sparsity":0.3}]})");
  return dir + "/w.json";
}

std::map<std::string, std::string> tensors(const std::string& run) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(run + "/tensors")) out[e.path().filename()] = read_text(e.path());
  return out;
}

}  // namespace

TEST_CASE("Compute interconnect 920: a chain of sparse layers gives the same bytes with none, 2x2 and benes",
          "[sparse][compute_interconnect][e2e][heavy]") {
  const std::string dir = scratch_dir("compute-interconnect-chain");
  const std::string workload = chain_workload(dir);
  std::map<std::string, std::map<std::string, std::string>> got;
  std::map<std::string, std::uint64_t> loaded, border;
  for (const char* link : {"none", "2x2", "benes"}) {
    auto r = run_npusim({"run", "--quiet", "--functional", "--workload", workload, "--config",
                         linked_config(dir, link), "--out", dir + "/run-" + link});
    INFO(link << "\n" << r.output);
    REQUIRE(r.status == 0);
    const auto report = nlohmann::json::parse(read_text(dir + "/run-" + std::string(link) + "/report.json"));
    REQUIRE(report.at("sparse_layers").size() == 3);
    got[link] = tensors(dir + "/run-" + link);
    for (const auto& [name, counters] : report.at("stats").items()) {
      if (name.find(".fm_memory") != std::string::npos) loaded[link] += counters.at("value_bytes").get<std::uint64_t>();
      if (name.find(".compute_interconnect") != std::string::npos)
        border[link] = counters.at("border_bytes").get<std::uint64_t>();
    }
    REQUIRE(!got[link].empty());
  }
  CHECK(got["2x2"] == got["none"]);
  CHECK(got["benes"] == got["none"]);
  // Without overlap the halo is not loaded twice; border partial sums travel instead.
  CHECK(loaded["benes"] < loaded["none"]);
  CHECK(loaded["2x2"] == loaded["benes"]);
  CHECK(border.count("none") == 0);
  CHECK(border["benes"] > 0);
  CHECK(border["2x2"] == border["benes"]);
}

TEST_CASE("Compute interconnect 920: an interconnect on a port count it cannot serve exits 2 naming the key",
          "[sparse][compute_interconnect][config]") {
  const std::string dir = scratch_dir("compute-interconnect-bad");
  for (const char* section : {R"({"units": 12, "compute_interconnect": "benes"})",
                              R"({"units": 1, "compute_interconnect": "2x2"})",
                              R"({"compute_interconnect": "mesh"})"}) {
    write_text(dir + "/c.json", fmt::format(R"({{"extends":"{}","core":{{"sparse":{}}}}})",
                                            source_path("configs/sparse.json"), section));
    auto r = run_npusim({"validate", dir + "/c.json"});
    INFO(section << "\n" << r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("/core/sparse/compute_interconnect"));
  }
}

TEST_CASE("Weight memory: weight_refill single and double charge the parts of a kernel larger than the buffers",
          "[sparse][weight_refill][e2e]") {
  const std::string dir = scratch_dir("weight-refill");
  write_text(dir + "/w.json", R"({"input":{"h":14,"w":14,"c":64},"layers":[{"name":"c","type":"conv","co":64,"k":3,)"
                              R"("padding":1,"engine":"sparse","activation_sparsity":0.8,"weight_sparsity":0.5}]})");
  std::map<std::string, nlohmann::json> memory;
  std::map<std::string, std::uint64_t> cycles;
  for (const char* refill : {"uncharged", "single", "double"}) {
    write_text(dir + "/c.json", fmt::format(R"({{"extends":"{}","core":{{"sparse":{{"weight_refill":"{}",)"
                                            R"("weight_buffer_bytes":8192}}}}}})",
                                            source_path("configs/sparse.json"), refill));
    auto r = run_npusim({"run", "--quiet", "--workload", dir + "/w.json", "--config", dir + "/c.json", "--out",
                         dir + "/run-" + refill});
    INFO(refill << "\n" << r.output);
    REQUIRE(r.status == 0);
    const auto report = nlohmann::json::parse(read_text(dir + "/run-" + std::string(refill) + "/report.json"));
    memory[refill] = report.at("stats").at("core0.sparse.weight_memory");
    cycles[refill] = report.at("total_cycles").get<std::uint64_t>();
  }
  // About 18,400 non-zero weights of 5 bytes in 8 KiB: 12 parts of one set, 23 of half a set.
  CHECK(memory["uncharged"].at("weight_refills") == 11);
  CHECK(memory["single"].at("weight_refills") == 11);
  CHECK(memory["double"].at("weight_refills") == 22);
  CHECK(!memory["uncharged"].contains("weight_refill_stall"));
  CHECK(memory["single"].at("weight_refill_stall").get<std::uint64_t>() > 0);
  // With one set every part waits for the units: never faster than two sets.
  CHECK(cycles["single"] >= cycles["double"]);
}
