// Simulated cycles of the sparse cluster behave like the hardware (issue 10): the
// issue width bounds a dense layer, cycles fall as zeros grow, and a partition that
// ignores where the non-zeros are is slower than the balanced one.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "sim/tensor/Npy.h"

namespace {

// The first sparse_conv row of a run of one 3x3 conv (20x20x16 -> 16) forced onto the
// cluster, with these input zeros and this unit design.
nlohmann::json sparse_conv_row(const std::string& dir, double zeros, const std::string& kind) {
  const std::string tag = fmt::format("{}-{}", kind, zeros);
  write_text(dir + "/w" + tag + ".json",
             fmt::format(R"({{"input":{{"h":20,"w":20,"c":16}},"layers":[{{"name":"c","type":"conv","co":16,"k":3,)"
                         R"("padding":1,"engine":"sparse","activation_sparsity":{}}}]}})",
                         zeros));
  write_text(dir + "/c" + tag + ".json",
             fmt::format(R"({{"extends":"{}","core":{{"sparse":{{"unit_kind":"{}"}}}}}})",
                         source_path("configs/sparse.json"), kind));
  auto r = run_npusim({"run", "--quiet", "--workload", dir + "/w" + tag + ".json", "--config",
                       dir + "/c" + tag + ".json", "--out", dir + "/run" + tag});
  INFO(r.output);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(read_text(dir + "/run" + tag + "/report.json")).at("sparse_layers").at(0);
}

}  // namespace

TEST_CASE("sparse timing: dense layers are bounded by the issue width, and cycles fall with sparsity",
          "[sparse][timing][e2e]") {
  const std::string dir = scratch_dir("sparse-timing");
  const double issue_width = 16 * 8;  // configs/sparse.json: units x multipliers
  for (const char* kind : {"1300", "1400", "1500"}) {
    INFO("unit " << kind);
    const auto dense = sparse_conv_row(dir, 0.0, kind);
    CHECK(dense.at("cycles").get<double>() >= dense.at("dense_macs").get<double>() / issue_width);
    // Round fill accounts for every round and every busy multiplier slot.
    for (const auto& unit : dense.at("units")) {
      const auto fill = unit.at("round_fill").get<std::vector<std::uint64_t>>();
      REQUIRE(fill.size() == 9);  // 0..p
      std::uint64_t rounds = 0, slots = 0;
      for (std::size_t k = 0; k < fill.size(); ++k) {
        rounds += fill[k];
        slots += k * fill[k];
      }
      CHECK(rounds == unit.at("rounds").get<std::uint64_t>());
      CHECK(slots == unit.at("products").get<std::uint64_t>() + unit.at("fifo_reissues").get<std::uint64_t>());
      if (std::string(kind) == "1300") CHECK(fill[8] < rounds);  // one weight per round leaves slots idle
    }
    double last = dense.at("cycles").get<double>();
    for (double zeros : {0.5, 0.8, 0.95}) {
      INFO("zeros " << zeros);
      const auto row = sparse_conv_row(dir, zeros, kind);
      CHECK(row.at("cycles").get<double>() < last);
      CHECK(row.at("useful_macs").get<double>() < dense.at("useful_macs").get<double>() * (1 - zeros) * 1.05);
      last = row.at("cycles").get<double>();
    }
  }
}

TEST_CASE("sparse timing: on a map dense on its top rows, the equal partition is slower than the balanced one",
          "[sparse][timing][partition][e2e]") {
  const std::string dir = scratch_dir("sparse-unbalanced");
  // Rows 0-11 dense, the rest zeros: the equal split's lower sub-maps (and with several
  // sub-maps per unit, the lower units' whole runs) have nothing to do.
  npusim::NpyArray map;
  map.dtype = npusim::DType::Int8;
  map.shape = {32, 32, 8};
  map.data.assign(32 * 32 * 8, 0);
  for (std::size_t y = 0; y < 12; ++y)
    for (std::size_t x = 0; x < 32; ++x)
      for (std::size_t c = 0; c < 8; ++c) map.data[(y * 32 + x) * 8 + c] = std::uint8_t(1 + (y * 7 + x * 3 + c) % 100);
  npusim::write_npy(dir + "/map.npy", map);
  const std::string trace =
      R"({"format":"npusim-trace","version":1,"inputs":[{"name":"map","space":"dram","offset":0,"file":"map.npy"},)"
      R"({"name":"w","space":"dram","offset":8192,"shape":[8,3,3,8],"dtype":"int8","random_seed":3}]})"
      "\n"
      R"({"id":0,"op":"compress","inputs":[{"space":"dram","offset":0,"shape":[32,32,8],"dtype":"int8"}],)"
      R"("outputs":[{"space":"dram","offset":16384,"shape":[8192],"dtype":"int8"},)"
      R"({"space":"dram","offset":24576,"shape":[8192],"dtype":"int32"}]})"
      "\n"
      R"({"id":1,"op":"compress","inputs":[{"space":"dram","offset":8192,"shape":[8,3,3,8],"dtype":"int8"}],)"
      R"("outputs":[{"space":"dram","offset":65536,"shape":[576],"dtype":"int8"},)"
      R"({"space":"dram","offset":66560,"shape":[576],"dtype":"int32"}]})"
      "\n"
      R"({"id":2,"op":"sparse_conv","inputs":[{"space":"dram","offset":16384,"shape":[8192],"dtype":"int8"},)"
      R"({"space":"dram","offset":24576,"shape":[8192],"dtype":"int32"},)"
      R"({"space":"dram","offset":65536,"shape":[576],"dtype":"int8"},)"
      R"({"space":"dram","offset":66560,"shape":[576],"dtype":"int32"}],)"
      R"("outputs":[{"space":"dram","offset":131072,"shape":[32,32,8],"dtype":"int32"}],)"
      R"("params":{"ifm_shape":[32,32,8],"kernel":[3,3],"padding":[1,1,1,1]},"deps":[0,1]})"
      "\n";
  write_text(dir + "/t.jsonl", trace);
  auto run = [&](const std::string& policy, const std::string& interconnect = "static", int submaps = 1) {
    const std::string name = fmt::format("{}-{}-{}", policy, interconnect, submaps);
    write_text(dir + "/" + name + ".json",
               fmt::format(R"({{"extends":"{}","core":{{"sparse":{{"units":4,"partition":"{}",)"
                           R"("memory_interconnect":"{}","submaps_per_unit":{}}}}}}})",
                           source_path("configs/sparse.json"), policy, interconnect, submaps));
    auto r = run_npusim({"run", "--quiet", "--functional", "--trace", dir + "/t.jsonl", "--config",
                         dir + "/" + name + ".json", "--out", dir + "/" + name});
    INFO(r.output);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(read_text(dir + "/" + name + "/report.json")).at("sparse_layers").at(0);
  };
  auto remote = [](const nlohmann::json& conv) {
    int n = 0;
    for (const auto& unit : conv.at("units")) n += unit.at("remote_submaps").get<int>();
    return n;
  };
  const auto equal = run("equal"), balanced = run("balanced");
  INFO("equal: " << equal.dump() << "\nbalanced: " << balanced.dump());
  CHECK(balanced.at("useful_macs") == equal.at("useful_macs"));
  CHECK(balanced.at("imbalance").get<double>() < equal.at("imbalance").get<double>());
  CHECK(balanced.at("partition_moves").get<int>() > 0);
  CHECK(balanced.at("cycles").get<double>() < 0.8 * equal.at("cycles").get<double>());

  SECTION("the memory interconnect lets idle units take the busy units' sub-maps (seed001 Fig. 5)") {
    const auto fixed = run("equal", "static", 4), pairs = run("equal", "2x2", 4), any = run("equal", "benes", 4);
    INFO("static: " << fixed.dump() << "\n2x2: " << pairs.dump() << "\nbenes: " << any.dump());
    CHECK(remote(fixed) == 0);
    CHECK(remote(pairs) > 0);
    CHECK(remote(any) >= remote(pairs));
    CHECK(any.at("useful_macs") == fixed.at("useful_macs"));
    CHECK(pairs.at("cycles").get<double>() < fixed.at("cycles").get<double>());
    CHECK(any.at("cycles").get<double>() < pairs.at("cycles").get<double>());
    // 2x2: compute unit i takes only from memory units i and i-1.
    for (const auto& unit : pairs.at("units"))
      for (const auto& region : unit.at("regions")) {
        const int u = unit.at("unit"), m = region.at("memory_unit");
        CHECK((m == u || m + 1 == u));
      }
  }
}

TEST_CASE("sparse timing: every compute unit with work has its own timeline track", "[sparse][timing][e2e]") {
  const std::string dir = scratch_dir("sparse-tracks");
  const auto row = sparse_conv_row(dir, 0.5, "1500");
  const auto timeline = nlohmann::json::parse(read_text(dir + "/run1500-0.5/timeline.json"));
  std::map<int, std::string> tracks;
  for (const auto& e : timeline.at("traceEvents"))
    if (e.at("ph") == "M" && e.at("name") == "thread_name") tracks[e.at("tid").get<int>()] = e.at("args").at("name");
  std::map<std::string, int> spans;
  for (const auto& e : timeline.at("traceEvents"))
    if (e.at("ph") == "X") ++spans[tracks[e.at("tid").get<int>()]];
  for (const auto& unit : row.at("units")) {
    const std::string track = fmt::format("core0.sparse.unit{}", unit.at("unit").get<int>());
    INFO(track);
    CHECK(spans[track] == 1);  // one sparse_conv
  }
}
