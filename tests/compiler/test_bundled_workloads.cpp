// Every bundled network compiles, runs in timing mode, and no layer beats its roofline.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

namespace {

nlohmann::json run_workload(const std::string& name, const std::string& config) {
  const std::string dir = scratch_dir("bundled-" + name);
  auto r = run_npusim({"run", "--quiet", "--workload", source_path("traces/workloads/" + name + ".json"), "--config",
                       source_path("configs/" + config), "--out", dir});
  INFO(r.output);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(read_text(dir + "/report.json"));
}

void check_roofline(const nlohmann::json& report, std::size_t layers) {
  const auto& rows = report.at("workload").at("rows");
  REQUIRE(rows.size() == layers);
  for (const auto& row : rows) {
    INFO(row.dump());
    CHECK(row.at("instructions").get<std::uint64_t>() > 0);
    CHECK(double(row.at("cycles").get<std::uint64_t>()) >= row.at("roofline_bound_cycles").get<double>());
    CHECK(row.at("achieved_fraction").get<double>() <= 1.0);
    CHECK(row.at("dram_bytes").get<std::uint64_t>() >= row.at("compulsory_dram_bytes").get<std::uint64_t>());
  }
}

}  // namespace

TEST_CASE("compiler: ResNet-50 layers are never faster than their roofline", "[compiler][roofline]") {
  auto report = run_workload("resnet50", "default.json");
  check_roofline(report, 72);
  CHECK(report.at("workload").at("rows")[0].at("macs") == 118013952);  // conv1: 112*112*64*7*7*3
}

TEST_CASE("compiler: MobileNetV2 layers are never faster than their roofline", "[compiler][roofline]") {
  check_roofline(run_workload("mobilenetv2", "default.json"), 64);
}

TEST_CASE("compiler: VGG-16 layers are never faster than their roofline", "[compiler][roofline]") {
  check_roofline(run_workload("vgg16", "default.json"), 21);
}

TEST_CASE("compiler: ResNet-50 split over four cores respects the roofline", "[compiler][roofline][heavy]") {
  check_roofline(run_workload("resnet50", "smp-2x2.json"), 72);
}

TEST_CASE("compiler: npusim run with no workload runs ResNet-50 and prints the layer table", "[compiler][e2e]") {
  const std::string dir = scratch_dir("default-run");
  auto a = run_npusim({"run", "--out", dir + "/a"});
  INFO(a.output);
  REQUIRE(a.status == 0);
  CHECK_THAT(a.output, Catch::Contains("resnet50.json") && Catch::Contains("res5c_branch2c") &&
                           Catch::Contains("achieved") && Catch::Contains("fc1000"));
  auto b = run_npusim({"run", "--quiet", "--out", dir + "/b"});
  REQUIRE(b.status == 0);
  CHECK(read_text(dir + "/a/report.json") == read_text(dir + "/b/report.json"));
  CHECK(run_npusim({"run", "--trace", "x.jsonl", "--workload", "y.json"}).status == 2);
}

// The same invariant with the banked DRAM model (issue 30): the roof is then the preset's
// peak of whole bursts back to back (sim/config/BankedDramChecks.h), which no layer may beat.
TEST_CASE("compiler: ResNet-50 respects the roofline on a banked DDR4-3200 DRAM", "[compiler][roofline][banked]") {
  const auto report = run_workload("resnet50", "dram/ddr4-3200.json");
  CHECK(report.at("workload").at("dram_bytes_per_cycle").get<double>() == Approx(4 * 25.6));
  check_roofline(report, 72);
}

TEST_CASE("compiler: MobileNetV2 respects the roofline on a banked LPDDR5-6400 and an HBM2 DRAM",
          "[compiler][roofline][banked]") {
  check_roofline(run_workload("mobilenetv2", "dram/lpddr5-6400.json"), 64);
  check_roofline(run_workload("mobilenetv2", "dram/hbm2.json"), 64);
}
