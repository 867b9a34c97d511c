// The worked numbers of seed003 §3 (spec §3.2 G1-G5), from the shared mapping and
// the address generator, and from a run of the example trace.
#include <catch2/catch.hpp>

#include <numeric>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "models/fetch_ml/AddressGenerator.h"
#include "models/shader_core/ShaderMapping.h"

using namespace npusim;

namespace {

// Three 5x5 maps (RGB), two 3x3 filters, stride 1 (¶[0046]).
ConvShape seed_example() {
  ConvShape s;
  s.n = 1, s.hi = 5, s.wi = 5, s.ci = 3, s.co = 2, s.kh = 3, s.kw = 3;
  return s;
}

ShaderCoreConfig shader_config(UnrollSite site) {
  ShaderCoreConfig c{};
  c.queue_depth = 4, c.lanes = 64, c.macs_per_lane_per_cycle = 4, c.register_groups = 2;
  c.unroll_site = site;
  c.pipeline_latency = 8;
  return c;
}

}  // namespace

TEST_CASE("seed003 G1: 5x5x3 with two 3x3 filters is [2x27].[27x9], 486 MACs, a 3x3x2 output", "[shader][seed003]") {
  const ShaderConvPlan plan = plan_shader_conv(shader_config(UnrollSite::RfRead), 64 * 1024, seed_example(), false);
  CHECK(plan.layer.ho() == 3);
  CHECK(plan.layer.wo() == 3);
  CHECK(plan.K == 27);
  CHECK(plan.positions == 9);
  CHECK(plan.macs == 486);
  REQUIRE(plan.tiles.size() == 1);
  CHECK(plan.tiles[0].filters == 2);
  CHECK(plan.tiles[0].positions.count == 9);
}

TEST_CASE("seed003 G2: 75 bytes fetched against 243 for a host-side im2col (about 30 %)", "[shader][seed003]") {
  for (UnrollSite site : {UnrollSite::RfRead, UnrollSite::FetchToRf}) {
    const ShaderConvPlan plan = plan_shader_conv(shader_config(site), 64 * 1024, seed_example(), false);
    CHECK(plan.ifm_fetch_bytes == 75);
    CHECK(plan.naive_im2col_bytes == 243);
    CHECK(double(plan.ifm_fetch_bytes) / plan.naive_im2col_bytes == Approx(0.3086).epsilon(1e-3));
    CHECK(plan.weight_fetch_bytes == 54);  // the filters unroll with no redundancy
  }
  // Reading B keeps the [5x15] image in the register file; reading A holds the [9x27] matrix.
  const ShaderConvPlan compact = plan_shader_conv(shader_config(UnrollSite::RfRead), 64 * 1024, seed_example(), false);
  const ShaderConvPlan unrolled =
      plan_shader_conv(shader_config(UnrollSite::FetchToRf), 64 * 1024, seed_example(), false);
  CHECK(compact.ifm_tile_bytes(compact.tiles[0]) == 75);
  CHECK(unrolled.ifm_tile_bytes(unrolled.tiles[0]) == 243);
}

TEST_CASE("seed003 G3: per-channel multiplicity of the image in the im2col matrix", "[shader][seed003]") {
  const std::vector<std::uint32_t> want = {1, 2, 3, 2, 1, 2, 4, 6, 4, 2, 3, 6, 9, 6, 3, 2, 4, 6, 4, 2, 1, 2, 3, 2, 1};
  const auto got = AddressGenerator::multiplicity_map(seed_example());
  CHECK(got == want);
  CHECK(std::accumulate(got.begin(), got.end(), 0u) == 81);
  CHECK(3 * std::accumulate(got.begin(), got.end(), 0u) == 243);
}

TEST_CASE("seed003 G4: the im2col entries follow the original image (row r = c*9 + ky*3 + kx)", "[shader][seed003]") {
  // Our K order is (ky*kw + kx)*ci + c, the filters' [f][ky][kx][c] layout; G4's row r
  // (c*9 + ky*3 + kx) is the same entry. Element id = c*25 + y*5 + x as in G4.
  const ConvShape g = seed_example();
  const std::vector<std::vector<int>> rows_c0 = {{0, 1, 2, 5, 6, 7, 10, 11, 12}, {1, 2, 3, 6, 7, 8, 11, 12, 13},
                                                 {12, 13, 14, 17, 18, 19, 22, 23, 24}};
  const std::vector<std::pair<int, int>> taps = {{0, 0}, {0, 1}, {2, 2}};
  for (int c = 0; c < 3; ++c)
    for (std::size_t r = 0; r < taps.size(); ++r)
      for (std::uint64_t j = 0; j < 9; ++j) {
        const std::uint64_t k = (taps[r].first * 3 + taps[r].second) * 3 + c;
        const std::int64_t e = AddressGenerator::im2col_element(g, 0, j, k);  // NHWC index
        const std::int64_t y = e / 15, x = (e / 3) % 5;
        CHECK(e % 3 == c);
        CHECK(c * 25 + y * 5 + x == rows_c0[r][j] + 25 * c);
      }
}

TEST_CASE("seed003 G5: NHWC return offsets of the 2x9 result are h*6 + w*2 + c", "[shader][seed003]") {
  const ConvShape g = seed_example();
  for (std::uint64_t h = 0; h < 3; ++h)
    for (std::uint64_t w = 0; w < 3; ++w)
      for (std::uint64_t c = 0; c < 2; ++c) CHECK(AddressGenerator::return_offset(g, 0, h, w, c) == h * 6 + w * 2 + c);
  ConvShape batch = g;
  batch.n = 2;  // n*HWC: the second image starts after 18 elements
  CHECK(AddressGenerator::return_offset(batch, 1, 0, 0, 0) == 18);
}

TEST_CASE("seed003 example trace: the state machine fetches 75 image bytes where im2col would fetch 243",
          "[shader][seed003][e2e]") {
  const std::string dir = scratch_dir("shader-example");
  auto r = run_npusim({"run", "--quiet", "--functional", "--trace", source_path("traces/examples/shader-conv.jsonl"),
                       "--config", source_path("configs/gpu-shader.json"), "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(read_text(dir + "/run/report.json"));
  const auto& fetch = report["stats"]["core0.fetch_ml"];
  CHECK(fetch["ifm_bytes"] == 75);
  CHECK(fetch["naive_im2col_bytes"] == 243);
  CHECK(fetch["weight_bytes"] == 54);
  CHECK(fetch["register_writes"] == 11);
  CHECK(report["stats"]["core0.shader"]["useful_macs"] == 486);
}

TEST_CASE("seed003 explain: the example layer's tiles and its 75 vs 243 bytes", "[shader][seed003][e2e]") {
  auto r = run_npusim({"explain", "--config", source_path("configs/gpu-shader.json"), "--layer",
                       "hi=5,wi=5,ci=3,co=2,k=3"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  using Catch::Matchers::Contains;
  CHECK_THAT(r.output, Contains("[2 x 27] . [27 x 9]") && Contains("fetched / im2col = 0.309") &&
                           Contains("MACs 486") && Contains("1 tiles"));
  auto none = run_npusim({"explain", "--engine", "shader", "--layer", "hi=5,wi=5,ci=3,co=2,k=3"});
  CHECK(none.status == 2);
  CHECK_THAT(none.output, Contains("this chip has no shader core"));
}
