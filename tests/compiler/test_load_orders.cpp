// Load orders (apps/compiler/tiling/LoadOrder.h, docs/load-orders.md): weight-, feature-map-
// and row-stationary loading never changes a result. Random conv and fc layers on small
// scratchpads (so bands and weight blocks both occur) equal the plain reference under every
// order, split mode and dependency mode, with the hazard checker on (any hazard is exit 2).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/RandomLayers.h"
#include "compiler/ReferenceLayers.h"
#include "e2e/NpusimProcess.h"

namespace {

namespace fs = std::filesystem;
using namespace npusim::layer_reference;

// A workload of `count` random conv and fc layers, each reading the network input, with
// enough output channels that small WRAMs take them in several blocks.
std::vector<RandomLayer> random_network(std::mt19937& rng, const std::string& path, int seed, int count) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int h = pick(6, 14), w = pick(5, 12), ci = pick(3, 60);
  std::vector<RandomLayer> specs;
  std::string layers;
  for (int i = 0; i < count; ++i) {
    specs.push_back(random_layer(pick, 8, 48));
    layers += random_layer_json(specs.back(), i);
  }
  write_text(path, fmt::format(R"({{"batch":{},"seed":{},"input":{{"h":{},"w":{},"c":{}}},"layers":[{}]}})",
                               pick(1, 2), seed, h, w, ci, layers));
  return specs;
}

std::string machine(const std::string& dir, const std::string& base) {
  const std::string path = fmt::format("{}/{}", dir, base);
  write_text(path, fmt::format(R"({{"extends": "{}", "core": {{"nram": {{"capacity_bytes": 16384}},)"
                               R"( "wram": {{"capacity_bytes": 4096}}}}}})",
                               source_path("configs/" + base)));
  return path;
}

nlohmann::json run(const std::vector<std::string>& args, const std::string& out) {
  std::vector<std::string> all = {"run", "--quiet", "--functional", "--out", out};
  all.insert(all.end(), args.begin(), args.end());
  const auto r = run_npusim(all);
  INFO(fmt::format("{}\n{}", fmt::join(args, " "), r.output));
  REQUIRE(r.status == 0);  // a hazard would be exit 2
  return nlohmann::json::parse(read_text(out + "/report.json"));
}

// Every layer of `out` equals the reference; counts the layers whose order really differs
// from ws (more than one weight block) and checks the report names the forced order.
std::size_t check_layers(const std::string& out, const nlohmann::json& report, const std::vector<RandomLayer>& specs,
                         const std::string& order) {
  const Tensor x = load(out + "/tensors/input.npy");
  std::size_t blocked = 0;
  for (const auto& row : report.at("workload").at("rows")) {
    const std::string name = row.at("name");
    const RandomLayer& s = specs.at(std::stoul(name.substr(1)));
    INFO("layer " << name << " " << row.at("tiling").dump());
    const Tensor k = load(out + "/tensors/" + name + ".weights.npy");
    CHECK(load(out + "/tensors/" + name + ".npy").v == conv(x, k, s.co, s.kh, s.kw, s.sh, s.sw, s.pad, s.relu).v);
    CHECK(row.at("load_order").at("order") == order);
    blocked += row.at("tiling").at("co_blocks").get<std::uint32_t>() > 1;
  }
  return blocked;
}

}  // namespace

TEST_CASE("load orders: random conv and fc layers equal the reference under every order, split and dependency mode",
          "[load-order][functional][heavy]") {
  const std::string dir = scratch_dir("load-orders-random");
  const std::string one = machine(dir, "default.json"), four = machine(dir, "smp-2x2.json");
  std::mt19937 rng(20261246);
  std::map<std::string, std::size_t> blocked;  // layers of several weight blocks, per order
  for (int net = 0; net < 3; ++net) {
    const std::string workload = fmt::format("{}/net{}.json", dir, net);
    const std::vector<RandomLayer> specs = random_network(rng, workload, 300 + net, 6);
    for (const char* order : {"ws", "fs", "rs"})
      for (const char* mode : {"as_traced", "full", "two_phase", "staged"})
        for (const auto& [config, split] : {std::pair{one, "data"}, {four, "data"}, {four, "model-ci"}, {four, "model-co"}}) {
          const std::string out = fmt::format("{}/net{}-{}-{}-{}-{}", dir, net, order, mode, split, config == one);
          INFO("net " << net << ", --load-order " << order << ", --dependency-mode " << mode << ", --split " << split);
          const auto report = run({"--workload", workload, "--config", config, "--load-order", order, "--split", split,
                                   "--dependency-mode", mode},
                                  out);
          blocked[order] += check_layers(out, report, specs, order);
          fs::remove_all(out);
        }
  }
  for (const auto& [order, layers] : blocked) {
    INFO(order << ": " << layers << " layer runs with several weight blocks");
    CHECK(layers >= 20);
  }
}

TEST_CASE("load orders: both readings of a complete compute unit give the reference's tensors",
          "[load-order][functional][heavy]") {
  const std::string dir = scratch_dir("load-orders-units");
  const std::string four = machine(dir, "smp-2x2.json");
  std::mt19937 rng(20261247);
  const std::string workload = dir + "/net.json";
  const std::vector<RandomLayer> specs = random_network(rng, workload, 400, 6);
  for (const char* order : {"ws", "fs", "rs"})
    for (const char* unit : {"round", "instruction"}) {
      const std::string out = fmt::format("{}/{}-{}", dir, order, unit);
      INFO("--load-order " << order << " --compute-unit " << unit);
      const auto report = run({"--workload", workload, "--config", four, "--load-order", order, "--compute-unit", unit},
                              out);
      check_layers(out, report, specs, order);
      for (const auto& row : report.at("workload").at("rows")) CHECK(row.at("load_order").at("compute_unit") == unit);
      fs::remove_all(out);
    }
}

// Row-stationary where it changes the tiling: few input channels and many output channels,
// so the int32 sums of a band dwarf its input. Half of NRAM holds the input rows of a much
// taller band than fs's, and each conv drains a few psum rows of it.
TEST_CASE("load orders: row-stationary computes tall bands a few psum rows at a time, equal to the reference",
          "[load-order][functional]") {
  const std::string dir = scratch_dir("load-orders-rs");
  const std::string config = dir + "/small.json";
  write_text(config, fmt::format(R"({{"extends": "{}", "core": {{"nram": {{"capacity_bytes": 16384}},)"
                                 R"( "wram": {{"capacity_bytes": 2048}}}}}})",
                                 source_path("configs/default.json")));
  const std::string workload = dir + "/tall.json";
  const std::vector<RandomLayer> specs = {{false, 64, 3, 3, 1, 1, {1, 1, 1, 1}, true}, {true, 96, 1, 1, 1, 1, {0, 0, 0, 0}, false}};
  write_text(workload, fmt::format(R"({{"batch":1,"seed":7,"input":{{"h":60,"w":16,"c":8}},"layers":[{}{}]}})",
                                   random_layer_json(specs[0], 0), random_layer_json(specs[1], 1)));
  std::map<std::string, nlohmann::json> rows;
  for (const char* order : {"fs", "rs"}) {
    const std::string out = fmt::format("{}/{}", dir, order);
    const auto report = run({"--workload", workload, "--config", config, "--load-order", order}, out);
    check_layers(out, report, specs, order);
    rows[order] = report.at("workload").at("rows");
    fs::remove_all(out);
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto& fs_row = rows["fs"].at(i);
    const auto& rs_row = rows["rs"].at(i);
    INFO(rs_row.dump());
    REQUIRE(rs_row.at("load_order").contains("psum_rows"));
    CHECK(rs_row.at("tiling").at("rows_per_band") > fs_row.at("tiling").at("rows_per_band"));
    CHECK(rs_row.at("load_order").at("psum_rows") < rs_row.at("tiling").at("rows_per_band"));
  }
  // Taller bands: each weight block is read for fewer bands.
  CHECK(rows["rs"].at(0).at("dram_bytes") < rows["fs"].at(0).at("dram_bytes"));
}
