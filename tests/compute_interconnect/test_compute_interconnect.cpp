// The compute interconnect 920 (issue 31): without it sub-maps overlap by k-1 and the halo
// is loaded twice; with it each unit loads only the input it owns, and border partial
// sums travel between units. Either way the outputs must equal a straightforward dense
// convolution bit for bit; the interconnect's passes, conflicts and cycles follow the
// Benes network's routing; a port count it cannot serve is refused naming the key.
#include <catch2/catch.hpp>

#include <random>

#include "models/compute_interconnect/BorderExchange.h"
#include "models/compute_interconnect/NoOverlapPartition.h"
#include "models/sparse_cluster/DepthwiseSeparable.h"
#include "reference/RandomSmallLayer.h"
#include "reference/ReferenceConv.h"
#include "sparse_cluster/SparseClusterTestConfig.h"

using namespace npusim;
using npusim::test::cluster;
using npusim::test::random_values;

namespace {

ConvShape random_shape(std::mt19937& rng) {
  ConvShape g;
  g.kh = 1 + rng() % 7;
  g.kw = rng() % 2 ? g.kh : 1 + rng() % 7;
  reference::random_small_layer(rng, g, 14, 4, 3);
  return g;
}

}  // namespace

TEST_CASE("Compute interconnect 920: with and without it the outputs equal a dense reference bit for bit, and "
          "without overlap every input non-zero is loaded once",
          "[sparse][compute_interconnect][reference][heavy]") {
  std::mt19937 rng(31031);
  for (int trial = 0; trial < 80; ++trial) {
    const ConvShape g = random_shape(rng);
    const double zeros = (rng() % 20) * 0.05;  // 0 .. 95 %
    const std::uint32_t units = 1u << (1 + rng() % 4);  // 2 .. 16
    const auto x = random_values(rng, std::size_t(g.hi) * g.wi * g.ci, zeros);
    const auto k = random_values(rng, std::size_t(g.co) * g.kh * g.kw * g.ci, zeros);
    const std::uint32_t ports = test::ports_for(g.kh, g.kw);
    CAPTURE(trial, g.to_string(), zeros, units);
    const CompressedMap xm = compress_map(x.data(), g.hi, g.wi, g.ci);
    const CompressedMap wm = compress_map(k.data(), g.co, g.kh * g.kw, g.ci);
    const auto expect = reference::direct_conv<std::int8_t, std::int64_t>(g, x, k);
    const auto none = cluster(units, ComputeInterconnectKind::None, ports);
    const auto benes = cluster(units, ComputeInterconnectKind::Benes, ports);
    const PlanOutputs halo = plan_outputs(none, SparseConvPlan(none, g, xm, wm));
    const PlanOutputs linked = plan_outputs(benes, SparseConvPlan(benes, g, xm, wm));
    REQUIRE(halo.sums == expect);
    REQUIRE(linked.sums == expect);
    CHECK(linked.products == halo.products);  // the same products, formed on other units
    // Without overlap no input non-zero is loaded twice; inputs that reach no output
    // (stride gaps after the last window) may be left out by both.
    CHECK(linked.loaded <= xm.values.size());
    if (g.sh <= g.kh && g.sw <= g.kw && g.pad_bottom == 0 && g.pad_right == 0 &&
        (g.pad_top + g.hi - g.kh) % g.sh == 0 && (g.pad_left + g.wi - g.kw) % g.sw == 0) {  // every input reaches some output: exactly once, halo at least once
      CHECK(linked.loaded == xm.values.size());
      CHECK(halo.loaded >= linked.loaded);
    }
  }
}

TEST_CASE("Compute interconnect 920: the owned inputs tile the map and reach the outputs they feed",
          "[sparse][compute_interconnect]") {
  ConvShape g;  // 8x8, 3x3, pad 1, stride 1: 8x8 outputs split into 2x2 sub-maps of 4x4
  g.hi = g.wi = 8;
  g.kh = g.kw = 3;
  g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 1;
  g.ci = g.co = 1;
  const std::vector<UnitRegion> own = {unit_region(g, 0, 4, 0, 4), unit_region(g, 0, 4, 4, 8),
                                       unit_region(g, 4, 8, 0, 4), unit_region(g, 4, 8, 4, 8)};
  const auto reach = no_overlap_regions(g, own);
  // Output 4's window starts at input row 4 - 1 = 3 (pad 1): sub-map 0 owns input rows
  // [0, 3) and sub-map 3 rows [3, 8); columns likewise.
  CHECK(reach[0].row0 == 0);
  CHECK(reach[0].rows == 3);
  CHECK(reach[3].row0 == 3);
  CHECK(reach[3].rows == 5);
  CHECK((reach[0].oy0 == 0 && reach[0].oy1 == 4));  // input rows 0..2 feed outputs 0..3
  CHECK((reach[3].oy0 == 2 && reach[3].oy1 == 8));  // input row 3 feeds outputs 2..4
  // The border ring sub-map 3 sends to its three neighbours: 2 rows x 4 cols, 4 x 2, 2 x 2.
  CHECK(border_outputs(reach[3], own[0]) == 4);
  CHECK(border_outputs(reach[3], own[1]) == 8);
  CHECK(border_outputs(reach[3], own[2]) == 8);
  CHECK(border_outputs(reach[3], own[3]) == 16);
}

TEST_CASE("Compute interconnect 920: Benes rounds take one pass per permutation and a pass per conflict, "
          "a 2x2 chain relays unit by unit",
          "[sparse][compute_interconnect]") {
  StatGroup stats("core0.sparse.compute_interconnect", "sparse_compute_interconnect");
  SECTION("benes, 4 ports: 3 stages of 1 cycle plus 16 bytes at 16 B/cycle = 4 cycles a pass") {
    ComputeInterconnect net("net_b", ComputeInterconnectKind::Benes, 4, 1, 16.0, stats);
    REQUIRE(net.stages() == 3);
    const auto swap = net.deliver({{0, 1, 16, 10}, {1, 0, 16, 10}, {2, 3, 16, 10}, {3, 2, 16, 10}});
    CHECK(swap == std::vector<Cycles>{14, 14, 14, 14});
    CHECK(*stats.find("passes") == 1);
    // Three units send to unit 0 at once: two wait, three passes.
    const auto hot = net.deliver({{1, 0, 16, 0}, {2, 0, 16, 0}, {3, 0, 16, 0}, {0, 0, 64, 0}});
    CHECK(hot == std::vector<Cycles>{12, 12, 12, 0});  // unit 0's own sums need no network
    CHECK(*stats.find("conflicts") == 2);
    CHECK(*stats.find("passes") == 4);
    // A unit sends one block at a time: its second waits for the next round.
    const auto serial = net.deliver({{0, 1, 32, 0}, {0, 2, 16, 0}});
    CHECK(serial == std::vector<Cycles>{5, 9});  // 3 + 32/16, then 3 + 16/16 after it
  }
  SECTION("2x2 chain, 4 units: 1 stage of 1 cycle plus 1 cycle of data a pass; 0 -> 3 takes 3 hops") {
    ComputeInterconnect net("net_2", ComputeInterconnectKind::Switch2x2, 4, 1, 16.0, stats);
    CHECK(net.deliver({{0, 3, 16, 0}}) == std::vector<Cycles>{6});
    CHECK(net.deliver({{0, 1, 16, 0}, {1, 0, 16, 0}}) == std::vector<Cycles>{2, 2});
  }
}

TEST_CASE("Compute interconnect 920: a port count it cannot serve is named", "[sparse][compute_interconnect]") {
  using K = ComputeInterconnectKind;
  CHECK(ComputeInterconnect::misfit(K::None, 1).empty());
  CHECK(ComputeInterconnect::misfit(K::Benes, 16).empty());
  CHECK(ComputeInterconnect::misfit(K::Switch2x2, 3).empty());
  CHECK_THAT(ComputeInterconnect::misfit(K::Benes, 12), Catch::Matchers::Contains("power-of-two"));
  CHECK_THAT(ComputeInterconnect::misfit(K::Benes, 1), Catch::Matchers::Contains("power-of-two"));
  CHECK_THAT(ComputeInterconnect::misfit(K::Switch2x2, 1), Catch::Matchers::Contains("at least 2 units"));
}
