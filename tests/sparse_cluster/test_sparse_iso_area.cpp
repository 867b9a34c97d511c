// The sparse cluster sized to the Wfold matrix unit's area (/core/sparse/iso_area, issue 31):
// configs/sparse-iso-area.json against a hand count of the energy table's areas and the run
// report's own area section, and the requests the area table cannot meet.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "models/sparse_cluster/SparseClusterConfig.h"
#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

// The cluster's area counted by hand from the table: units x p MACs, two FM buffer sets per
// unit and the weight memory of SRAM, two Benes networks of P ports per unit ((P/2)(2 log2 P - 1)
// switches each) and the compress lanes.
double hand_cluster_mm2(const json& table, const SparseClusterConfig& s, std::uint32_t units) {
  const json& c = table.at("classes");
  const double sram_kib = (2.0 * units * double(s.fm_buffer_bytes) + double(s.weight_buffer_bytes)) / 1024;
  const double switches = 2.0 * units * (s.min_ports / 2.0) * (2 * std::log2(double(s.min_ports)) - 1);
  return double(units) * s.multipliers * c.at("mac").at("area_mm2").get<double>() +
         sram_kib * c.at("sram").at("area_mm2").get<double>() +
         switches * c.at("min_switch").at("area_mm2").get<double>() +
         double(s.compress_elements_per_cycle) * c.at("vector").at("area_mm2").get<double>();
}

double component_mm2(const json& report, const std::string& name) {
  for (const json& c : report.at("area").at("components"))
    if (c.at("name") == name) return c.at("mm2").get<double>();
  FAIL("no area component " << name);
  return 0;
}

InputError rejection(const std::string& doc_text) {
  try {
    parse_hardware_config(json::parse(doc_text), "chip.json");
  } catch (const InputError& e) {
    return e;
  }
  FAIL("config was accepted: " << doc_text);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("iso area: configs/sparse-iso-area.json takes the most units whose cluster fits the matrix unit's area",
          "[sparse][iso_area][config][e2e]") {
  const HardwareConfig hw = load_hardware_config(source_path("configs/sparse-iso-area.json"));
  const auto& s = hw.core.block<SparseClusterConfig>(SparseClusterConfig::kSection);
  const json table = json::parse(read_text(source_path("configs/energy/default-16nm.json")));
  const std::string dir = scratch_dir("sparse-iso-area");
  write_text(dir + "/w.json", R"({"input":{"h":8,"w":8,"c":8},"layers":[{"name":"c","type":"conv","co":8,"k":3,"padding":1}]})");
  auto r = run_npusim({"run", "--quiet", "--workload", dir + "/w.json", "--config",
                       source_path("configs/sparse-iso-area.json"), "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const json report = json::parse(read_text(dir + "/run/report.json"));
  const double matrix = component_mm2(report, "core0.matrix"), cluster = component_mm2(report, "core0.sparse");
  INFO("units " << s.units << ", cluster " << cluster << " mm2, matrix unit " << matrix << " mm2");
  CHECK(s.iso_area == IsoAreaSizing::Units);
  CHECK(s.units > 16);  // more than configs/sparse.json's 16: its buffers are smaller
  CHECK(cluster == Approx(hand_cluster_mm2(table, s, s.units)));
  CHECK(cluster <= matrix);
  // The reference: the most units within the area whose partition grid is compact (the most
  // square r x c = units with c <= 2r), searched by hand.
  std::uint32_t expected = 0;
  for (std::uint32_t u = 1; u <= 256; ++u) {
    std::uint32_t r = 1;
    for (std::uint32_t d = 1; d * d <= u; ++d)
      if (u % d == 0) r = d;
    if (u / r <= 2 * r && hand_cluster_mm2(table, s, u) <= matrix) expected = u;
  }
  CHECK(s.units == expected);

  SECTION("the resolved config resolves to itself") {
    const HardwareConfig again = parse_hardware_config(resolved_config_json(hw), "resolved.json");
    CHECK(again.core.block<SparseClusterConfig>(SparseClusterConfig::kSection).units == s.units);
  }
  SECTION("explain shows the resolved units and both areas") {
    auto e = run_npusim({"explain", "--config", source_path("configs/sparse-iso-area.json"), "--engine", "sparse",
                         "--layer", "hi=16,wi=16,ci=8,co=8,kh=3,kw=3,pad=1", "--sparsity", "ifm=0.5"});
    INFO(e.output);
    REQUIRE(e.status == 0);
    CHECK_THAT(e.output, Contains(fmt::format("{} units of kind 1500, p = 8", s.units)));
    CHECK_THAT(e.output, Contains(fmt::format("the matrix unit {:.4f} mm²", matrix)));
    CHECK_THAT(e.output, Contains("units sized to it (iso_area)"));
  }
}

TEST_CASE("iso area: sizing multipliers raises the MIN ports with them and stays under the matrix unit's area",
          "[sparse][iso_area][config]") {
  const HardwareConfig hw = parse_hardware_config(
      json::parse(R"({"core":{"engines":["load","store","vector","matrix","sparse"],)"
                  R"("sparse":{"iso_area":"multipliers","units":8,"max_weights_per_round":0}}})"),
      "chip.json");
  const auto& s = hw.core.block<SparseClusterConfig>(SparseClusterConfig::kSection);
  CHECK(s.units == 8);
  CHECK(s.multipliers > 8);
  CHECK(s.min_ports >= s.multipliers);
  CHECK((s.min_ports & (s.min_ports - 1)) == 0);
  // A Benes memory interconnect keeps units a power of two.
  const HardwareConfig benes = parse_hardware_config(
      json::parse(R"({"core":{"engines":["load","store","vector","matrix","sparse"],)"
                  R"("sparse":{"iso_area":"units","memory_interconnect":"benes"}}})"),
      "chip.json");
  const std::uint32_t units = benes.core.block<SparseClusterConfig>(SparseClusterConfig::kSection).units;
  CHECK((units & (units - 1)) == 0);
}

TEST_CASE("iso area: a request the area table cannot meet is refused at /core/sparse/iso_area",
          "[sparse][iso_area][config][errors]") {
  const std::string engines = R"("engines":["load","store","vector","matrix","sparse"])";
  const InputError too_big = rejection(
      R"({"core":{)" + engines + R"(,"sparse":{"iso_area":"units","fm_buffer_bytes":1073741824}}})");
  CHECK(too_big.location() == "/core/sparse/iso_area");
  CHECK_THAT(too_big.reason(), Contains("cannot meet") && Contains("with units = 1"));
  const InputError too_small = rejection(R"({"core":{)" + engines + R"(,"sparse":{"iso_area":"multipliers",)"
                                         R"("units":1,"fm_buffer_bytes":64,"weight_buffer_bytes":64}}})");
  CHECK(too_small.location() == "/core/sparse/iso_area");
  CHECK_THAT(too_small.reason(), Contains("cannot meet") && Contains("multipliers = 256, the largest allowed"));
  const InputError no_matrix =
      rejection(R"({"core":{"engines":["load","store","vector","sparse"],"sparse":{"iso_area":"units"}}})");
  CHECK(no_matrix.location() == "/core/sparse/iso_area");
  CHECK_THAT(no_matrix.reason(), Contains("no 'matrix' engine"));

  SECTION("npusim validate: one error line, exit 2") {
    const std::string dir = scratch_dir("sparse-iso-area-errors");
    write_text(dir + "/c.json", fmt::format(R"({{"extends":"{}","core":{{"sparse":{{"fm_buffer_bytes":1073741824}}}}}})",
                                            source_path("configs/sparse-iso-area.json")));
    auto r = run_npusim({"validate", dir + "/c.json"});
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("error: ") && Contains("/core/sparse/iso_area: the area table cannot meet it"));
  }
}
