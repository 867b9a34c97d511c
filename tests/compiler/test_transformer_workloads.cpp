// The bundled transformer workloads compile and run in timing mode (two-layer variants,
// to keep the suite short); every row names its engine and respects its roofline.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

TEST_CASE("compiler: two-layer BERT-base and 7B decode workloads run in timing mode", "[compiler][transformer][e2e]") {
  const std::string dir = scratch_dir("transformer-workloads");
  for (const std::string name : {"bert-base-2l", "llm-7b-decode-2l"}) {
    INFO(name);
    const std::string out = dir + "/" + name;
    auto r = run_npusim({"run", "--quiet", "--workload", source_path("traces/workloads/" + name + ".json"), "--config",
                         source_path("configs/smp-2x2.json"), "--out", out});
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto report = nlohmann::json::parse(read_text(out + "/report.json"));
    std::size_t matmuls = 0;
    for (const auto& row : report.at("workload").at("rows")) {
      INFO(row.dump());
      const std::string kind = row.at("kind");
      const std::string engine = row.at("engine");
      CHECK(engine == (kind == "matmul" || kind == "fc" ? "matrix" : "vector"));
      CHECK(row.at("cycles").get<double>() >= row.at("roofline_bound_cycles").get<double>());
      if (kind != "matmul") continue;
      ++matmuls;
      // 12 heads of 64 over 128 tokens; 32 heads of 128 against a 2,048-token cache.
      const double macs = name == "bert-base-2l" ? 12.0 * 128 * 128 * 64 : 32.0 * 1 * 2048 * 128;
      CHECK(row.at("macs").get<double>() == macs);
    }
    CHECK(matmuls == 4);
  }
}

TEST_CASE("compiler: the two-layer 70B decode runs on the 64-core config", "[compiler][transformer][e2e][heavy]") {
  const std::string out = scratch_dir("transformer-70b") + "/run";
  auto r = run_npusim({"run", "--quiet", "--workload", source_path("traces/workloads/llm-70b-decode-2l.json"),
                       "--config", source_path("configs/smp-8x8.json"), "--out", out});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(read_text(out + "/report.json"));
  const auto& rows = report.at("workload").at("rows");
  REQUIRE(rows.size() == 2 * 16);  // 16 layers a block
  for (const auto& row : rows) {
    INFO(row.dump());
    CHECK(row.at("cores") == 64);
    const std::string kind = row.at("kind"), name = row.at("name");
    // One token: d 8192 in and out of q/k/v/proj; 64 heads of 128 against an 8,192-token cache;
    // the gated MLP's 28,672 features.
    double macs = 0;
    if (kind == "matmul") macs = 64.0 * 1 * 8192 * 128;
    if (kind == "fc") macs = name.find(".attn.") != std::string::npos ? 8192.0 * 8192 : 8192.0 * 28672;
    CHECK(row.at("macs").get<double>() == macs);
  }
}
