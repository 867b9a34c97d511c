// The energy account adds up: per layer, per class and per component, and each
// layer's DRAM energy is what its own loads and stores moved, even when layers of
// several cores overlap in time.
#include <catch2/catch.hpp>

#include "e2e/NpusimProcess.h"
#include "energy/EnergyRuns.h"

using namespace energy_test;

namespace {

double sum_of(const json& rows, const char* field) {
  double s = 0;
  for (const auto& row : rows) s += row.at(field).get<double>();
  return s;
}

void check_conservation(const json& r) {
  const json& e = r["energy"];
  const double total = e["total_pj"];
  REQUIRE(total > 0);
  CHECK(relative(e["dynamic_pj"].get<double>() + e["static_pj"].get<double>(), total) < 1e-12);
  CHECK(relative(sum_of(e["classes"], "total_pj"), total) < 1e-9);
  CHECK(relative(sum_of(e["engines"], "total_pj") + sum_of(e["memories"], "total_pj"), total) < 1e-9);
  CHECK(relative(sum_of(e["layers"], "total_pj"), total) < 1e-9);
  CHECK(relative(sum_of(e["layers"], "dynamic_pj"), e["dynamic_pj"]) < 1e-9);
  CHECK(relative(sum_of(e["layers"], "static_pj"), e["static_pj"]) < 1e-9);
  CHECK(relative(e["pj_per_inference"].get<double>() * e["inferences"].get<double>(), total) < 1e-12);

  // The default table prices a DRAM read and a write alike.
  const double dram_pj = 162.5;
  const json& rows = r["workload"]["rows"];
  REQUIRE(rows.size() == e["layers"].size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO(rows[i]["name"]);
    const json& layer = e["layers"][i];
    REQUIRE(layer["name"] == rows[i]["name"]);
    const double moved = rows[i]["dram_bytes"].get<double>();
    const double dram = layer["classes"].value("dram", 0.0);
    CHECK(relative(dram, moved * dram_pj) < 1e-9);
  }
}

}  // namespace

TEST_CASE("energy: ResNet-50 layers, classes and components add up to the total", "[energy]") {
  const std::string dir = scratch_dir("energy-resnet");
  check_conservation(run_report({"--workload", source_path("traces/workloads/resnet50.json")}, dir + "/run"));
}

TEST_CASE("energy: on four cores at once each layer is still charged its own actions", "[energy][heavy]") {
  for (const char* config : {"smp-2x2.json", "hetero-2x2.json", "numa-2x2.json"}) {
    DYNAMIC_SECTION(config) {
      const std::string dir = scratch_dir(std::string("energy-multi-") + config);
      const json r = run_report({"--config", source_path(std::string("configs/") + config), "--workload",
                                 source_path("traces/workloads/mobilenetv2.json")},
                                dir + "/run");
      check_conservation(r);
    }
  }
}
