// The counted timing path (CountedRounds.h) against the exact one that issues every operand
// pair through MultiplierArray and the WriteArbiter: over random shapes, strides 1-3, kernels
// 1-7, 1 to 150 channels, sparsities 0-95 %, all three unit kinds, random multiplier counts,
// weight caps and adder-merge settings, every statistic and the unit's busy cycles must be
// equal, collisions included.
#include <catch2/catch.hpp>

#include <random>

#include "models/sparse_compute_unit/CountedRounds.h"
#include "models/sparse_compute_unit/ProductIndex.h"
#include "reference/RandomSmallLayer.h"
#include "sparse_compute_unit/SparseUnitTestSupport.h"

using namespace npusim;

namespace {

void require_equal_stats(const SubmapStats& counted, const SubmapStats& exact) {
  REQUIRE(counted.multipliers.rounds == exact.multipliers.rounds);
  REQUIRE(counted.multipliers.products == exact.multipliers.products);
  REQUIRE(counted.multipliers.reissued == exact.multipliers.reissued);
  REQUIRE(counted.multipliers.iterations == exact.multipliers.iterations);
  REQUIRE(counted.multipliers.adder_sums == exact.multipliers.adder_sums);
  REQUIRE(counted.multipliers.round_fill == exact.multipliers.round_fill);
  REQUIRE(counted.arbiter.collisions == exact.arbiter.collisions);
  REQUIRE(counted.arbiter.adjacent_merges == exact.arbiter.adjacent_merges);
  REQUIRE(counted.arbiter.fifo_max == exact.arbiter.fifo_max);
  REQUIRE(counted.windows == exact.windows);
  REQUIRE(counted.nonzeros == exact.nonzeros);
}

ConvShape random_shape(std::mt19937& rng, int trial) {
  ConvShape g;
  g.kh = trial % 4 == 1 ? 1 : 1 + rng() % 7;  // a quarter 1x1
  g.kw = trial % 3 == 0 || trial % 4 == 1 ? g.kh : 1 + rng() % 7;
  // Every fifth trial has many channels: the 1x1 path's channel sets span several words.
  reference::random_small_layer(rng, g, 10, trial % 5 == 0 ? 150 : 6, 4);
  return g;
}

ComputeUnitShape random_unit(std::mt19937& rng, int trial, const ConvShape& g) {
  const SparseUnitKind kinds[] = {SparseUnitKind::Unit1300, SparseUnitKind::Unit1400, SparseUnitKind::Unit1500};
  ComputeUnitShape unit;
  unit.kind = kinds[trial % 3];
  unit.multipliers = 1 + rng() % 16;
  unit.max_weights = rng() % 5;
  unit.adder_merge = (trial / 3) % 2 == 0;
  unit.min_ports = pow2_at_least(std::max(var_side(g.kh) * var_side(g.kw), unit.multipliers));
  return unit;
}

}  // namespace

TEST_CASE("Counted rounds: timing stats equal the exact pair-by-pair path over random layers",
          "[sparse][counted]") {
  std::mt19937 rng(20261126);
  SubmapStats total;
  for (int trial = 0; trial < 600; ++trial) {
    const ConvShape g = random_shape(rng, trial);
    const double zeros = (rng() % 20) * 0.05;  // 0 .. 95 %
    const auto x = sparse_values(rng, std::size_t(g.hi) * g.wi * g.ci, zeros);
    const auto w = sparse_values(rng, std::size_t(g.co) * g.kh * g.kw * g.ci, (rng() % 20) * 0.05);
    const ComputeUnitShape unit = random_unit(rng, trial, g);
    CAPTURE(trial, g.to_string(), zeros, int(unit.kind), unit.multipliers, unit.max_weights, unit.adder_merge);
    const CompressedMap map = compress_map(x.data(), g.hi, g.wi, g.ci);
    const CompressedMap wmap = compress_map(w.data(), g.co, g.kh * g.kw, g.ci);
    const KernelNonzeros kernel(g.co, g.kh, g.kw, g.ci, wmap.values, wmap.indices);
    const auto rows = cuts(rng, g.ho(), 1 + rng() % 3), cols = cuts(rng, g.wo(), 1 + rng() % 3);
    for (std::size_t i = 0; i + 1 < rows.size(); ++i)
      for (std::size_t j = 0; j + 1 < cols.size(); ++j) {
        const UnitRegion region = unit_region(g, rows[i], rows[i + 1], cols[j], cols[j + 1]);
        const CellGrid cells(map, region, g.kh, g.kw);
        const SubmapWork work{&g, region, &cells, &kernel, nullptr};
        REQUIRE(counted_rounds_apply(work));
        const SubmapStats counted = convolve_submap_counted(unit, work), exact = convolve_submap_exact(unit, work);
        require_equal_stats(counted, exact);
        const ComputeUnitTiming timing{1 + rng() % 3, 1 + rng() % 4};
        REQUIRE(timing.busy(counted) == timing.busy(exact));  // the unit's cycles
        total.multipliers.add(counted.multipliers);
        total.arbiter.collisions += counted.arbiter.collisions;
        total.arbiter.adjacent_merges += counted.arbiter.adjacent_merges;
      }
  }
  // The draw reaches every branch: collisions deferred and merged, FIFO products re-issued,
  // and the 1x1 adder.
  CHECK(total.arbiter.collisions > 1000);
  CHECK(total.arbiter.adjacent_merges > 1000);
  CHECK(total.multipliers.reissued > 1000);
  CHECK(total.multipliers.adder_sums > 1000);
}

TEST_CASE("Counted rounds: functional runs and VARs past 256 locations keep the exact path", "[sparse][counted]") {
  ConvShape g;
  g.hi = g.wi = 12;
  g.ci = g.co = 1;
  g.kh = g.kw = 3;
  const CompressedMap map{12, 12, 1, {1}, {0}};
  const UnitRegion region = unit_region(g, 0, g.ho(), 0, g.wo());
  const CellGrid cells(map, region, 3, 3);
  const KernelNonzeros kernel(3, 3, {{1, 0, 0}});
  std::vector<std::int64_t> sums;
  CHECK(counted_rounds_apply({&g, region, &cells, &kernel, nullptr}));
  CHECK_FALSE(counted_rounds_apply({&g, region, &cells, &kernel, &sums}));
  g.kh = g.kw = 9;  // a 17 x 17 VAR
  CHECK_FALSE(counted_rounds_apply({&g, region, &cells, &kernel, nullptr}));
}
