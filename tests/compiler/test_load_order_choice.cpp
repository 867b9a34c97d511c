// --load-order auto follows simulation: each conv or fc layer takes the order whose layer run
// alone on the chip is fastest, and the report keeps every order's cycles and DRAM bytes. The
// reference is independent of the planner's trials: each layer of a held-out table
// (tests/compiler/split-held-out) as its own one-layer workload, run by a separate npusim
// process with each order forced.
#include <catch2/catch.hpp>

#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/HeldOutLayers.h"
#include "e2e/NpusimProcess.h"

namespace {

using npusim::held_out::one_layer_workloads;
using npusim::held_out::run_report;

// A shipped config with a small WRAM, so that most layers' weights come in several blocks
// and the orders differ.
std::string small_wram(const std::string& dir, const std::string& base, std::uint64_t wram) {
  const std::string path = fmt::format("{}/{}-wram{}.json", dir, base, wram);
  write_text(path, fmt::format(R"({{"extends": "{}", "core": {{"wram": {{"capacity_bytes": {}}}}}}})",
                               source_path("configs/" + base + ".json"), wram));
  return path;
}

void check_table(const std::string& table, const std::string& config) {
  const std::string dir = scratch_dir("load-order-auto-" + table + "-" + config);
  const std::string csv = source_path("tests/compiler/split-held-out/" + table + ".csv");
  const std::string cfg = small_wram(dir, config, 16384);
  const auto autorun = run_report({"--workload", csv, "--config", cfg, "--load-order", "auto"}, dir + "/auto");
  const auto layers = one_layer_workloads(csv);
  std::size_t compared = 0, not_ws = 0;
  for (const auto& row : autorun.at("workload").at("rows")) {
    const std::string name = row.at("name");
    const nlohmann::json& order = row.at("load_order");
    INFO(table << " on " << config << ", layer " << name << ": " << order.dump());
    if (row.at("tiling").at("co_blocks") == 1) continue;  // one block: ws without trials
    const std::string path = dir + "/" + name + ".json";
    write_text(path, layers.at(name));
    std::uint64_t best = ~0ull;
    for (const auto& [o, figures] : order.at("candidates").items()) {
      const auto forced = run_report({"--workload", path, "--config", cfg, "--load-order", o,
                                      "--split", row.at("split").at("mode").get<std::string>()},
                                     dir + "/" + name + "-" + o);
      const auto& forced_row = forced.at("workload").at("rows").at(0);
      CHECK(forced_row.at("load_order").at("order") == o);
      CHECK(figures.at("cycles").get<std::uint64_t>() == forced.at("total_cycles").get<std::uint64_t>());
      CHECK(figures.at("dram_bytes").get<std::uint64_t>() == forced_row.at("dram_bytes").get<std::uint64_t>());
      best = std::min(best, forced.at("total_cycles").get<std::uint64_t>());
    }
    const std::uint64_t chosen = order.at("candidates").at(order.at("order").get<std::string>()).at("cycles");
    CHECK(double(chosen) <= 1.02 * double(best));
    not_ws += order.at("order") != "ws";
    ++compared;
  }
  CHECK(compared >= layers.size() / 2);
  WARN(table << ": " << not_ws << " of " << compared << " compared layers left weight-stationary");
}

}  // namespace

TEST_CASE("load order auto: held-out ResNet-18 layers take the order whose forced run alone is fastest (default)",
          "[load-order][auto][heavy]") {
  check_table("resnet18", "default");
}

TEST_CASE("load order auto: held-out Inception-v3 layers take the order whose forced run alone is fastest (smp-2x2)",
          "[load-order][auto][heavy]") {
  check_table("inception-v3", "smp-2x2");
}

// seed004 §2.5.1: which order pays depends on whether weights or inputs dominate. An early
// conv whose input (112x112x32, 401 KB) dwarfs its weights (18 KB, in five WRAM blocks):
// ws reads the input once per block, fs reads it once and the weights once per band.
TEST_CASE("load orders: fs moves fewer DRAM bytes than ws where the input dwarfs the weights, and the report says so",
          "[load-order]") {
  const std::string dir = scratch_dir("load-order-dram");
  const std::string cfg = small_wram(dir, "default", 8192);
  const std::string workload = dir + "/early.json";
  write_text(workload, R"({"name": "early", "input": {"h": 112, "w": 112, "c": 32},
    "layers": [{"name": "conv", "type": "conv", "co": 64, "kh": 3, "kw": 3, "padding": [1, 1, 1, 1]}]})");
  std::map<std::string, std::uint64_t> bytes;
  for (const char* o : {"ws", "fs"}) {
    const auto r = run_report({"--workload", workload, "--config", cfg, "--load-order", o}, dir + "/" + o);
    const auto& row = r.at("workload").at("rows").at(0);
    REQUIRE(row.at("tiling").at("co_blocks").get<std::uint32_t>() > 1);
    bytes[o] = row.at("dram_bytes");
  }
  const std::uint64_t input = 112 * 112 * 32, weights = 64 * 9 * 32, output = 112 * 112 * 64;
  CHECK(bytes["fs"] < bytes["ws"]);
  CHECK(bytes["ws"] >= 2 * input + weights + output);  // the input at least twice
  CHECK(bytes["fs"] < 2 * input + output);             // the input about once
  const auto a = run_report({"--workload", workload, "--config", cfg, "--load-order", "auto"}, dir + "/auto");
  const auto& order = a.at("workload").at("rows").at(0).at("load_order");
  INFO(order.dump(2));
  CHECK(order.at("candidates").at("fs").at("dram_bytes") == bytes["fs"]);
  CHECK(order.at("candidates").at("ws").at("dram_bytes") == bytes["ws"]);
  CHECK(order.at("candidates").at("fs").at("dram_bytes_vs_ws").get<double>() < 0);
  if (order.at("order") == "fs") CHECK(order.at("reason").get<std::string>().find("fewer DRAM bytes than ws") != std::string::npos);
}

// A network end to end: auto never loses to weight-stationary alone.
TEST_CASE("load order auto: tiny.json on a small WRAM is never slower than ws", "[load-order][auto]") {
  const std::string dir = scratch_dir("load-order-network");
  const std::string cfg = small_wram(dir, "default", 8192);
  const std::string workload = source_path("traces/workloads/tiny.json");
  const auto ws = run_report({"--workload", workload, "--config", cfg, "--load-order", "ws"}, dir + "/ws");
  const auto best = run_report({"--workload", workload, "--config", cfg, "--load-order", "auto"}, dir + "/auto");
  CHECK(best.at("total_cycles").get<std::uint64_t>() <= ws.at("total_cycles").get<std::uint64_t>());
}
