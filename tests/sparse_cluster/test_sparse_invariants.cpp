// Timing invariants of the sparse cluster over randomized layers (issue 31): cycles fall
// with sparsity until fixed costs take over, a deliberately unbalanced partition is slower,
// and no run beats the cluster's own roofline.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "sim/tensor/Npy.h"

namespace {

using nlohmann::json;

struct RandomLayer {
  int h, w, c, co, k, stride;
  std::string text() const { return fmt::format("{}x{}x{} -> {}, k {}, stride {}", h, w, c, co, k, stride); }
};

RandomLayer random_layer(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int k = std::vector<int>{1, 3, 5}[pick(0, 2)];
  return {pick(10, 24), pick(10, 24), pick(4, 16), pick(4, 16), k, pick(1, 2)};
}

// The run report of one conv forced onto the cluster of configs/sparse.json, with MINs of 128
// ports so that 5x5 kernels (VAR 9x9) fit too.
json run_layer(const std::string& dir, const std::string& tag, const RandomLayer& l, double ifm_zeros,
               double weight_zeros, const std::string& input = "", const std::string& sparse_keys = "") {
  const std::string file = input.empty() ? "" : fmt::format(R"(,"file":"{}")", input);
  write_text(dir + "/w" + tag + ".json",
             fmt::format(R"({{"input":{{"h":{},"w":{},"c":{}{}}},"layers":[{{"name":"c","type":"conv","co":{},"k":{},)"
                         R"("stride":{},"padding":{},"engine":"sparse","activation_sparsity":{},"weight_sparsity":{}}}]}})",
                         l.h, l.w, l.c, file, l.co, l.k, l.stride, l.k / 2, ifm_zeros, weight_zeros));
  write_text(dir + "/c" + tag + ".json",
             fmt::format(R"({{"extends":"{}","core":{{"sparse":{{"min_ports":128{}{}}}}}}})",
                         source_path("configs/sparse.json"), sparse_keys.empty() ? "" : ",", sparse_keys));
  std::vector<std::string> args = {"run", "--quiet", "--workload", dir + "/w" + tag + ".json", "--config",
                                   dir + "/c" + tag + ".json", "--out", dir + "/run" + tag};
  if (!input.empty()) args.push_back("--functional");
  auto r = run_npusim(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
  return json::parse(read_text(dir + "/run" + tag + "/report.json"));
}

double conv_cycles(const json& report) { return report.at("sparse_layers").at(0).at("cycles").get<double>(); }

// A map whose top `dense_rows` rows are all non-zero and whose other rows are zero.
void write_top_dense_map(const std::string& path, const RandomLayer& l, int dense_rows) {
  npusim::NpyArray map;
  map.dtype = npusim::DType::Int8;
  map.shape = {1, std::size_t(l.h), std::size_t(l.w), std::size_t(l.c)};
  map.data.assign(std::size_t(l.h) * l.w * l.c, 0);
  for (std::size_t i = 0; i < std::size_t(dense_rows) * l.w * l.c; ++i) map.data[i] = std::uint8_t(1 + i % 97);
  npusim::write_npy(path, map);
}

}  // namespace

TEST_CASE("sparse invariants: cycles fall with sparsity, more slowly than the products once fixed costs take over",
          "[sparse][timing][invariants][e2e]") {
  const std::string dir = scratch_dir("sparse-invariant-fall");
  std::mt19937 rng(31);
  for (int n = 0; n < 3; ++n) {
    const RandomLayer l = random_layer(rng);
    INFO("layer " << l.text());
    double last_cycles = 0, first_cycles = 0, first_products = 0;
    for (double zeros : {0.0, 0.3, 0.6, 0.8, 0.9, 0.95}) {
      INFO("zeros " << zeros);
      const json row = run_layer(dir, fmt::format("{}-{}", n, zeros), l, zeros, 0.0).at("sparse_layers").at(0);
      const double cycles = row.at("cycles").get<double>(), products = row.at("useful_macs").get<double>();
      if (zeros == 0.0) {
        first_cycles = cycles;
        first_products = products;
      } else {
        CHECK(cycles <= last_cycles * 1.02);  // a random mask may shift a sub-map's load by a little
      }
      last_cycles = cycles;
      if (zeros == 0.95) CHECK(cycles / first_cycles > products / first_products);
    }
  }
}

TEST_CASE("sparse invariants: a deliberately unbalanced partition is slower than the balanced one",
          "[sparse][timing][invariants][partition][e2e][heavy]") {
  const std::string dir = scratch_dir("sparse-invariant-unbalanced");
  std::mt19937 rng(7);
  for (int n = 0; n < 3; ++n) {
    RandomLayer l = random_layer(rng);
    l.h = std::max(l.h, 16);
    l.stride = 1;
    INFO("layer " << l.text());
    const std::string map = fmt::format("{}/map{}.npy", dir, n);
    write_top_dense_map(map, l, l.h / 3);
    const std::string keys = R"("units":4,"partition":")";
    const json equal = run_layer(dir, fmt::format("eq{}", n), l, 0.6, 0.0, map, keys + R"(equal")");
    const json balanced = run_layer(dir, fmt::format("bal{}", n), l, 0.6, 0.0, map, keys + R"(balanced")");
    CHECK(balanced.at("sparse_layers").at(0).at("useful_macs") == equal.at("sparse_layers").at(0).at("useful_macs"));
    CHECK(conv_cycles(balanced) < conv_cycles(equal));
  }
}

namespace {

double stat(const json& report, const std::string& group, const std::string& counter) {
  return report.at("stats").at(group).at(counter).get<double>();
}

// The cluster's own roofline for one sparse_conv: its useful products over all its
// multipliers, the compressed weights over the weight memory's DMA path (they load before
// any unit starts), each FM memory unit's compressed bytes over its own path, and every
// byte the cluster moves over all DRAM channels. The compressed byte counts are the run's
// own counters, whatever the compressed format.
double roofline_cycles(const json& report, int units, int multipliers, double dma_bpc) {
  const json& row = report.at("sparse_layers").at(0);
  const std::string cluster = "core0.sparse";
  double bound = row.at("useful_macs").get<double>() / (units * multipliers);
  const double weights = stat(report, cluster + ".weight_memory", "weight_value_bytes") +
                         stat(report, cluster + ".weight_memory", "weight_index_bytes");
  bound = std::max(bound, weights / dma_bpc);
  double all = weights, dram = 0;
  for (int u = 0; u < units; ++u) {
    const std::string fm = fmt::format("{}.fm_memory{}", cluster, u);
    const double in = stat(report, fm, "value_bytes") + stat(report, fm, "index_bytes");
    bound = std::max(bound, in / dma_bpc);
    all += in + stat(report, fm, "output_bytes");
  }
  for (const json& ch : report.at("dram_channels")) dram += ch.at("bandwidth_bytes_per_cycle").get<double>();
  return std::max(bound, all / dram);
}

}  // namespace

TEST_CASE("sparse invariants: no sparse_conv beats the cluster's roofline of products and compressed bytes",
          "[sparse][timing][invariants][roofline][e2e]") {
  const std::string dir = scratch_dir("sparse-invariant-roofline");
  std::mt19937 rng(2031);
  for (int n = 0; n < 8; ++n) {
    const RandomLayer l = random_layer(rng);
    const double ifm = std::uniform_real_distribution<double>(0, 0.95)(rng);
    const double weights = std::uniform_real_distribution<double>(0, 0.9)(rng);
    INFO("layer " << l.text() << ", zeros " << ifm << " / " << weights);
    const json report = run_layer(dir, std::to_string(n), l, ifm, weights);
    // configs/sparse.json: 16 units of 8 multipliers; the default DMA path of 16 B/cycle.
    REQUIRE(report.at("sparse_layers").at(0).at("units").at(0).at("round_fill").size() == 9);
    const double bound = roofline_cycles(report, 16, 8, 16.0);
    CHECK(bound > 0);
    CHECK(conv_cycles(report) >= bound);
  }
}
