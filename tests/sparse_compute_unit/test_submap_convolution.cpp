// The sparse compute units' datapath against a plain dense convolution: products with
// their computed indices go through the multipliers, the write arbiter and the Benes
// MINs into VAR and the accumulator buffer; the assembled output must equal the
// reference exactly, over random shapes, kernels 1-7, strides 1-3, sparsity 0-95 %.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "models/sparse_compute_unit/ProductIndex.h"
#include "models/sparse_compute_unit/SubmapConvolution.h"
#include "reference/RandomSmallLayer.h"
#include "sparse_compute_unit/SparseUnitTestSupport.h"

using namespace npusim;

namespace {

// out[oy][ox][co] = sum over (a, b, ci) of x[oy*sh - pt + a][ox*sw - pl + b][ci] * w[co][a][b][ci]
std::vector<std::int64_t> reference_conv(const ConvShape& g, const std::vector<std::int8_t>& x,
                                         const std::vector<std::int8_t>& w) {
  std::vector<std::int64_t> out(std::size_t(g.ho()) * g.wo() * g.co, 0);
  for (std::uint32_t oy = 0; oy < g.ho(); ++oy)
    for (std::uint32_t ox = 0; ox < g.wo(); ++ox)
      for (std::uint32_t co = 0; co < g.co; ++co) {
        std::int64_t s = 0;
        for (std::uint32_t a = 0; a < g.kh; ++a)
          for (std::uint32_t b = 0; b < g.kw; ++b) {
            const std::int64_t y = std::int64_t(oy) * g.sh - g.pad_top + a;
            const std::int64_t xx = std::int64_t(ox) * g.sw - g.pad_left + b;
            if (y < 0 || xx < 0 || y >= g.hi || xx >= g.wi) continue;
            for (std::uint32_t ci = 0; ci < g.ci; ++ci)
              s += std::int64_t(x[(std::size_t(y) * g.wi + xx) * g.ci + ci]) *
                   w[((std::size_t(co) * g.kh + a) * g.kw + b) * g.ci + ci];
          }
        out[(std::size_t(oy) * g.wo() + ox) * g.co + co] = s;
      }
  return out;
}

}  // namespace

TEST_CASE("Sparse compute units: functional output equals a dense reference convolution, bit for bit",
          "[sparse][reference]") {
  std::mt19937 rng(20261124);
  const SparseUnitKind kinds[] = {SparseUnitKind::Unit1300, SparseUnitKind::Unit1400, SparseUnitKind::Unit1500};
  for (int trial = 0; trial < 60; ++trial) {
    ConvShape g;
    g.kh = 1 + rng() % 7;
    g.kw = trial % 3 == 0 ? g.kh : 1 + rng() % 7;
    reference::random_small_layer(rng, g, 10, 5, 4);
    const double zeros = (rng() % 20) * 0.05;  // 0 .. 95 %
    const auto x = sparse_values(rng, std::size_t(g.hi) * g.wi * g.ci, zeros);
    const auto w = sparse_values(rng, std::size_t(g.co) * g.kh * g.kw * g.ci, zeros);
    ComputeUnitShape unit;
    unit.kind = kinds[trial % 3];
    unit.multipliers = 1 + rng() % 12;
    unit.max_weights = rng() % 4;
    unit.adder_merge = trial % 2 == 0;
    unit.min_ports = pow2_at_least(std::max(var_side(g.kh) * var_side(g.kw), unit.multipliers));
    CAPTURE(trial, g.to_string(), zeros, int(unit.kind), unit.multipliers, unit.max_weights);

    const CompressedMap map = compress_map(x.data(), g.hi, g.wi, g.ci);
    const CompressedMap wmap = compress_map(w.data(), g.co, g.kh * g.kw, g.ci);  // [co, kh*kw, ci]
    const KernelNonzeros kernel(g.co, g.kh, g.kw, g.ci, wmap.values, wmap.indices);
    std::vector<std::int64_t> got(std::size_t(g.ho()) * g.wo() * g.co, -777);
    const auto rows = cuts(rng, g.ho(), 1 + rng() % 3), cols = cuts(rng, g.wo(), 1 + rng() % 3);
    std::uint64_t products = 0;
    for (std::size_t i = 0; i + 1 < rows.size(); ++i)
      for (std::size_t j = 0; j + 1 < cols.size(); ++j) {
        const UnitRegion region = unit_region(g, rows[i], rows[i + 1], cols[j], cols[j + 1]);
        const CellGrid cells(map, region, g.kh, g.kw);
        std::vector<std::int64_t> sums;
        sums.resize(std::size_t(region.oy1 - region.oy0) * (region.ox1 - region.ox0) * g.co);
        const SubmapStats s = convolve_submap(unit, {&g, region, &cells, &kernel, &sums});
        products += s.multipliers.products;
        CHECK(s.read_min.conflicts == 0);
        CHECK(s.write_min.passes == s.read_min.passes);
        for (std::uint32_t oy = region.oy0; oy < region.oy1; ++oy)
          for (std::uint32_t ox = region.ox0; ox < region.ox1; ++ox)
            for (std::uint32_t co = 0; co < g.co; ++co)
              got[(std::size_t(oy) * g.wo() + ox) * g.co + co] =
                  sums[(std::size_t(oy - region.oy0) * (region.ox1 - region.ox0) + (ox - region.ox0)) * g.co + co];
      }
    REQUIRE(got == reference_conv(g, x, w));
    // Every multiplication pairs two non-zeros: no more than the dense MACs.
    CHECK(products <= std::uint64_t(g.ho()) * g.wo() * g.co * g.kh * g.kw * g.ci);
  }
}

TEST_CASE("Sparse compute units: timing-only runs count the same rounds as functional runs", "[sparse]") {
  std::mt19937 rng(7);
  ConvShape g;
  g.hi = g.wi = 12;
  g.ci = 3;
  g.co = 2;
  g.kh = g.kw = 3;
  g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 1;
  const auto x = sparse_values(rng, std::size_t(g.hi) * g.wi * g.ci, 0.6);
  const auto w = sparse_values(rng, std::size_t(g.co) * 9 * g.ci, 0.3);
  const CompressedMap map = compress_map(x.data(), g.hi, g.wi, g.ci);
  const CompressedMap wmap = compress_map(w.data(), g.co, 9, g.ci);
  const KernelNonzeros kernel(g.co, 3, 3, g.ci, wmap.values, wmap.indices);
  const UnitRegion region = unit_region(g, 0, g.ho(), 0, g.wo());
  const CellGrid cells(map, region, 3, 3);
  ComputeUnitShape unit{SparseUnitKind::Unit1400, 6, 2, 32, false};
  std::vector<std::int64_t> sums(std::size_t(g.ho()) * g.wo() * g.co);
  const SubmapStats functional = convolve_submap(unit, {&g, region, &cells, &kernel, &sums});
  const SubmapStats timing = convolve_submap(unit, {&g, region, &cells, &kernel, nullptr});
  CHECK(functional.multipliers.rounds == timing.multipliers.rounds);
  CHECK(functional.arbiter.collisions == timing.arbiter.collisions);
  CHECK(functional.arbiter.collisions > 0);
  CHECK(functional.windows == timing.windows);
  CHECK(functional.read_min.passes == functional.multipliers.rounds);  // one Benes pass per round
}
