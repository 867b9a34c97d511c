// The layer table's bound names the resource that limits the layer (issue 45), on
// hand-built cases where each resource is made the narrowest by construction. The named
// resource must also explain much of the run.
#include <catch2/catch.hpp>

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

namespace {

struct Case {
  std::string name, workload, chip;  // workload JSON text; chip JSON text (extending a shipped config)
};

nlohmann::json layer_row(const Case& c) {
  const std::string dir = scratch_dir("layer-bound-" + c.name);
  write_text(dir + "/w.json", c.workload);
  write_text(dir + "/chip.json", c.chip);
  const auto r = run_npusim({"run", "--quiet", "--workload", dir + "/w.json", "--config", dir + "/chip.json", "--out",
                             dir + "/out"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(read_text(dir + "/out/report.json")).at("workload").at("rows").at(0);
}

// The bound names `resource`, a clear limit (every other resource, DRAM as a whole aside,
// needs at most two thirds of its cycles), and a lower bound that explains much of the run.
void check_bound(const Case& c, const std::string& resource) {
  const nlohmann::json row = layer_row(c);
  INFO(c.name << ": " << row.at("cycles") << " cycles, " << row.at("bound_by_resource").dump());
  const std::string bound = row.at("roofline_bound");
  CHECK(bound.rfind(resource, 0) == 0);
  const double cycles = row.at("cycles").get<double>(), bound_cycles = row.at("roofline_bound_cycles").get<double>();
  CHECK(bound_cycles <= cycles);
  CHECK(bound_cycles >= 0.4 * cycles);
  for (const auto& other : row.at("bound_by_resource"))
    if (other.at("resource") != bound && other.at("resource") != "dram")
      CHECK(other.at("cycles").get<double>() * 1.5 <= bound_cycles);
}

std::string chip(const std::string& base, const std::string& chip_keys) {
  return fmt::format(R"({{"extends": "{}", "chip": {}}})", source_path("configs/" + base), chip_keys);
}

// One image of a 2048-wide vector through an fc layer: 4 MiB of weights streamed once.
const std::string kStream = R"({"input": {"h": 1, "w": 1, "c": 2048}, "layers": [{"name": "fc", "type": "fc", "n": 2048}]})";

}  // namespace

TEST_CASE("layer bound: a weight stream on the default chip is bound by its load DMA, not DRAM",
          "[report][bound]") {
  // 64 B/cycle of load DMA against four 32 B/cycle channels (128 B/cycle).
  check_bound({"dma", kStream, chip("default.json", "{}")}, "load dma 0");
}

TEST_CASE("layer bound: the same stream from one 16 B/cycle channel is bound by that channel", "[report][bound]") {
  check_bound({"channel", kStream, chip("default.json", R"({"dram": {"channels": 1, "bytes_per_cycle": 16}})")},
              "channel 0");
}

TEST_CASE("layer bound: data-parallel cores behind 8 B/cycle cluster links are bound by a link", "[report][bound]") {
  const std::string conv = R"({"input": {"h": 56, "w": 56, "c": 64},
    "layers": [{"name": "conv", "type": "conv", "co": 64, "kh": 1, "kw": 1}]})";
  check_bound({"link", conv, chip("smp-2x2.json", R"({"interconnect": {"cluster_link_bytes_per_cycle": 8}})")},
              "link ");
}

TEST_CASE("layer bound: a 3x3 conv with 64 channels in and out is bound by compute", "[report][bound]") {
  const std::string conv = R"({"input": {"h": 56, "w": 56, "c": 64},
    "layers": [{"name": "conv", "type": "conv", "co": 64, "kh": 3, "kw": 3, "padding": [1, 1, 1, 1]}]})";
  check_bound({"compute", conv, chip("default.json", "{}")}, "compute");
}
