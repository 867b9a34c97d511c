// A trace whose actions are known by hand: one load of the feature map, one of
// the weights, one 1x1 conv, one store. Its energy must be exactly the table's
// per-action energies times those counts, worked out here from the trace. An int8
// conv with a shift requantizes every result on the matrix unit's result path,
// priced as the vector unit's requant: 4 lane ops (the int32 accumulator's bytes).
#include <catch2/catch.hpp>

#include <cmath>

#include "e2e/NpusimProcess.h"
#include "energy/EnergyRuns.h"

using namespace energy_test;

namespace {

// Reads, register files and buses are free here: their counts depend on the matrix
// unit's mapping. Every other action has a price no other one shares.
json hand_table() {
  auto cls = [](json actions, double area, double leakage) {
    return json{{"actions_pj", actions}, {"area_mm2", area}, {"leakage_mw_per_mm2", leakage}};
  };
  json sram = cls({{"read", 0.0}, {"write", 0.25}}, 0, 0);
  sram["reference_capacity_bytes"] = 65536;
  sram["capacity_exponent"] = 0.5;
  json rf = cls({{"read", 0.0}, {"write", 0.0}}, 0, 0);
  rf["reference_capacity_bytes"] = 1024;
  rf["capacity_exponent"] = 0.0;
  return {{"name", "hand"},
          {"node_nm", 16},
          {"classes",
           {{"mac", cls({{"int8", 0.5}, {"float16", 1.0}, {"float32", 2.0}}, 0.001, 10.0)},
            {"sram", sram},
            {"register_file", rf},
            {"bus", cls({{"transfer", 0.0}}, 0, 0)},
            {"dram", cls({{"read", 3.0}, {"write", 5.0}}, 0, 0)},
            {"dma", cls({{"transaction", 7.0}}, 0, 0)},
            {"vector", cls({{"lane_op", 0.125}}, 0, 0)}}}};
}

std::uint64_t segments(std::uint64_t bytes) { return (bytes + 4095) / 4096; }  // default segment_bytes

}  // namespace

TEST_CASE("energy: a load, a conv and a store cost exactly the table's energies times their counts", "[energy]") {
  struct Case {
    std::string name;
    unsigned h, w, ci, co;
    std::string dtype;
    double mac_pj;
    std::uint64_t element;
    bool requantize;
  };
  for (const Case& c : {Case{"int8", 8, 8, 64, 64, "int8", 0.5, 1, false},
                        Case{"int8-requantized", 8, 8, 64, 64, "int8", 0.5, 1, true},
                        Case{"float32", 8, 8, 16, 64, "float32", 2.0, 4, false}}) {
    DYNAMIC_SECTION(c.name) {
      const std::string dir = scratch_dir("energy-hand-" + c.name);
      write_text(dir + "/hand.json", hand_table().dump(2));
      write_text(dir + "/conv.jsonl", conv_trace(c.h, c.w, c.ci, c.co, c.dtype, c.requantize));
      const std::string config = write_config(dir, "chip.json", "default.json", {{"chip", {{"energy_table", "hand.json"}}}});
      const json r = run_report({"--config", config, "--trace", dir + "/conv.jsonl"}, dir + "/run");

      const std::uint64_t ifm = std::uint64_t(c.h) * c.w * c.ci * c.element, weights = std::uint64_t(c.co) * c.ci * c.element;
      const std::uint64_t results = std::uint64_t(c.h) * c.w * c.co, macs = std::uint64_t(c.h) * c.w * c.ci * c.co;
      const std::uint64_t out = results * (c.requantize ? 1 : 4);
      const double requant_pj = c.requantize ? double(results) * 4 * 0.125 : 0.0;
      const std::uint64_t transactions = 2 * (segments(ifm) + segments(weights) + segments(out));
      REQUIRE(r["stats"]["core0.matrix"]["issued_macs"] == macs);  // the shape maps without idle MAC slots
      REQUIRE(r["stats"]["core0.matrix"]["requantized_results"] == (c.requantize ? results : 0));

      const double scale = std::sqrt(524288.0 / 65536.0);  // NRAM and WRAM of default.json, exponent 0.5
      const double cycles = r["total_cycles"].get<double>();
      const double mac_static = 16.0 * 4 * 64 * 0.001 * 10.0 * cycles * 1e3 / 1000.0;  // 4096 MACs at 1000 MHz
      const json& classes = r["energy"]["classes"];
      CHECK(relative(row_named(classes, "mac")["dynamic_pj"], double(macs) * c.mac_pj) < 1e-12);
      CHECK(relative(row_named(classes, "mac")["static_pj"], mac_static) < 1e-12);
      CHECK(relative(row_named(classes, "sram")["total_pj"], double(ifm + out + weights) * 0.25 * scale) < 1e-12);
      CHECK(relative(row_named(classes, "dram")["total_pj"], double(ifm + weights) * 3.0 + double(out) * 5.0) < 1e-12);
      CHECK(row_named(classes, "dma")["total_pj"] == Approx(double(transactions) * 7.0).epsilon(1e-12));
      CHECK(row_named(classes, "vector")["total_pj"] == Approx(requant_pj).epsilon(1e-12));
      CHECK(row_named(r["energy"]["engines"], "core0.matrix")["classes"].value("vector", 0.0) ==
            Approx(requant_pj).epsilon(1e-12));
      const double expected = double(macs) * c.mac_pj + mac_static + double(ifm + out + weights) * 0.25 * scale +
                              double(ifm + weights) * 3.0 + double(out) * 5.0 + double(transactions) * 7.0 +
                              requant_pj;
      CHECK(relative(r["energy"]["total_pj"], expected) < 1e-12);
      CHECK(relative(r["area"]["total_mm2"], 4096 * 0.001) < 1e-12);
    }
  }
}
