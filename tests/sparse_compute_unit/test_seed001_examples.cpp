// seed001 §5.3: the worked examples the text fully determines, each a named test.
// Kernel tap positions are figure-only (arrow 1825); where an example depends on them
// the test states the positions it assumes.
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "models/sparse_compute_unit/ProductIndex.h"
#include "models/sparse_compute_unit/SubmapConvolution.h"

using namespace npusim;

namespace {

using Operands = std::vector<std::pair<int, int>>;  // (data, weight) per multiplier, in order

struct Recorded {
  std::vector<Operands> issued;
  std::vector<std::size_t> reissued, passed;
};

Recorded run(MultiplierArray& m, const std::vector<OperandPair>& pairs) {
  Recorded r;
  m.issue(pairs, false, [&r](const RoundView& round) {
    Operands ops;
    for (const Product& p : round.issued) ops.emplace_back(p.data, p.weight);
    r.issued.push_back(ops);
    r.reissued.push_back(round.reissued);
    r.passed.push_back(round.passed.size());
  });
  return r;
}

// A 2x2 sub-map at the map's origin, convolved "full" (pad 1 on every side) so every
// product of the cell lands on an output: the output is the 3x3 VAR window.
struct Cell {
  ConvShape shape;
  CompressedMap map;
  UnitRegion region;
  CellGrid grid;
  KernelNonzeros kernel;
  Cell(std::vector<std::int8_t> dense, std::vector<NonZero> taps)
      : shape(make_shape()),
        map(compress_map(dense.data(), 2, 2, 1)),
        region(unit_region(shape, 0, 3, 0, 3)),
        grid(map, region, 2, 2),
        kernel(2, 2, std::move(taps)) {}
  static ConvShape make_shape() {
    ConvShape g;
    g.hi = g.wi = 2;
    g.ci = g.co = 1;
    g.kh = g.kw = 2;
    g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 1;
    return g;
  }
  std::vector<OperandPair> pairs() const {
    std::vector<OperandPair> out;
    SubmapWork work{&shape, region, &grid, &kernel, nullptr};
    window_pairs(work, 0, 0, 0, out);
    return out;
  }
};

// Kernel 1920 of Figs. 19-20 in its issue order -6, 6, -9, 3. Positions assumed:
// -6 at (0,1), 6 at (0,0), -9 at (1,0), 3 at (1,1) (the Fig. 20 collision fixes the first two).
const std::vector<NonZero> kKernel1920 = {{-6, 0, 1}, {6, 0, 0}, {-9, 1, 0}, {3, 1, 1}};

// 1905j: -9 at (4,1) and 9 at (4,2) of map 1900 with kernel 1920; VAR index row * 16 + col.
std::vector<OperandPair> fig20_pairs() {
  const std::vector<NonZero> data = {{-9, 4, 1}, {9, 4, 2}};
  std::vector<OperandPair> pairs;
  std::uint32_t id = 0;
  for (const NonZero& w : kKernel1920) {
    for (const NonZero& d : data) {
      const ProductIndex at = product_index(d.row, d.col, w.row, w.col, 2, 2);
      pairs.push_back({d.value, w.value, std::uint32_t(at.row * 16 + at.col), id});
    }
    ++id;
  }
  return pairs;
}

}  // namespace

TEST_CASE("seed001 §2.5: a product's output index is the data index offset by the weight's distance from the "
          "kernel's last row and column", "[sparse][seed001][golden]") {
  // xw_row = x_row + ((w_row_len - 1) - w_row), likewise for columns.
  CHECK(product_index(0, 0, 0, 0, 2, 2) == ProductIndex{1, 1});
  CHECK(product_index(0, 0, 1, 1, 2, 2) == ProductIndex{0, 0});
  CHECK(product_index(3, 5, 0, 2, 3, 3) == ProductIndex{5, 5});
  CHECK(product_index(4, 2, 0, 1, 2, 2) == ProductIndex{5, 2});
  // A k x k cell's products span 2k - 1 positions per axis: the VAR window.
  for (int k = 1; k <= 7; ++k) {
    int lo = 1 << 20, hi = -1;
    for (int x = 0; x < k; ++x)
      for (int w = 0; w < k; ++w) {
        const int r = product_index(x, 0, w, 0, k, k).row;
        lo = std::min(lo, r);
        hi = std::max(hi, r);
      }
    CHECK(hi - lo + 1 == int(var_side(std::uint32_t(k))));
  }
}

TEST_CASE("seed001 Fig. 18: unit 1300, one weight per iteration, p = 3: two rounds per iteration, eight in all",
          "[sparse][seed001][golden]") {
  // Sub-map 1805a = [[3, 9], [6, -5]]; weights -6, 6, -9, 3 one per iteration
  // (positions assumed row-major).
  Cell cell({3, 9, 6, -5}, {{-6, 0, 0}, {6, 0, 1}, {-9, 1, 0}, {3, 1, 1}});
  MultiplierArray m(SparseUnitKind::Unit1300, 3, 0, 9);
  const Recorded r = run(m, cell.pairs());
  const std::vector<Operands> expected = {
      {{3, -6}, {9, -6}, {6, -6}}, {{-5, -6}},  // iteration 1: Figs. 18b, 18c
      {{3, 6}, {9, 6}, {6, 6}},    {{-5, 6}},   // iteration 2: Fig. 18d
      {{3, -9}, {9, -9}, {6, -9}}, {{-5, -9}},  // iteration 3
      {{3, 3}, {9, 3}, {6, 3}},    {{-5, 3}},   // iteration 4
  };
  CHECK(r.issued == expected);
  CHECK(m.stats().rounds == 8);
  CHECK(m.stats().iterations == 4);
  CHECK(m.stats().products == 16);  // 16 of 24 multiplier slots: 66.7 %
}

TEST_CASE("seed001 Fig. 19: unit 1500, two weights per iteration, p = 3, capped and uncapped",
          "[sparse][seed001][golden]") {
  SECTION("1905a: non-zeros 9 and -5, iterations overlap (Figs. 19b, 19c)") {
    Cell cell({0, 9, 0, -5}, kKernel1920);
    MultiplierArray m(SparseUnitKind::Unit1500, 3, 2, 9);
    const Recorded r = run(m, cell.pairs());
    REQUIRE(r.issued.size() == 3);
    CHECK(r.issued[0] == Operands{{9, -6}, {-5, -6}, {9, 6}});   // round 1
    CHECK(r.issued[1] == Operands{{-5, 6}, {9, -9}, {-5, -9}});  // round 2: iteration 2 ends, 3 runs beside it
    CHECK(r.issued[2] == Operands{{9, 3}, {-5, 3}});
    CHECK(m.arbiter_stats().collisions == 0);
  }
  SECTION("1905c: one non-zero -2; with a cap of two weights the third multiplier idles") {
    Cell cell({-2, 0, 0, 0}, kKernel1920);
    MultiplierArray capped(SparseUnitKind::Unit1500, 3, 2, 9);
    CHECK(run(capped, cell.pairs()).issued.front() == Operands{{-2, -6}, {-2, 6}});
    MultiplierArray uncapped(SparseUnitKind::Unit1500, 3, 0, 9);
    CHECK(run(uncapped, cell.pairs()).issued.front() == Operands{{-2, -6}, {-2, 6}, {-2, -9}});
  }
  SECTION("unit 1400 issues the same rounds (¶235)") {
    Cell cell({0, 9, 0, -5}, kKernel1920);
    MultiplierArray m(SparseUnitKind::Unit1400, 3, 2, 9);
    CHECK(run(m, cell.pairs()).issued[0] == Operands{{9, -6}, {-5, -6}, {9, 6}});
  }
}

TEST_CASE("seed001 Fig. 20: a collision at (5,2) sends the second weight's product to the FIFO, the next round "
          "issues 2 data values and the MIN outputs 3 products", "[sparse][seed001][golden]") {
  const std::vector<OperandPair> pairs = fig20_pairs();
  CHECK(product_index(4, 2, 0, 1, 2, 2) == ProductIndex{5, 2});  // 9 x (-6)
  CHECK(product_index(4, 1, 0, 0, 2, 2) == ProductIndex{5, 2});  // (-9) x 6
  // Unit 1400, and unit 1500 with its select unit set to defer (as Fig. 20 draws it).
  for (SparseUnitKind kind : {SparseUnitKind::Unit1400, SparseUnitKind::Unit1500}) {
    MultiplierArray m(kind, 3, 2, 16 * 16, false);
    const Recorded r = run(m, pairs);
    CHECK(r.issued[0] == Operands{{-9, -6}, {9, -6}, {-9, 6}});
    CHECK(r.passed[0] == 2);    // (-9) x 6 waits in FIFO 2000
    CHECK(r.reissued[1] == 1);
    CHECK(r.issued[1].size() == 2);  // only two new data values
    CHECK(r.passed[1] == 3);    // 2 new + 1 from the FIFO
    CHECK(m.arbiter_stats().collisions == 1);
  }
}

TEST_CASE("Unit 1500 with adder merge: the colliding neighbours of Fig. 20 are summed, nothing waits",
          "[sparse][seed001]") {
  const std::vector<OperandPair> pairs = fig20_pairs();
  MultiplierArray m(SparseUnitKind::Unit1500, 3, 2, 16 * 16, true);
  const Recorded r = run(m, pairs);
  CHECK(r.passed[0] == 2);   // 9 x (-6) + (-9) x 6 leave as one sum
  CHECK(r.reissued[1] == 0);
  CHECK(r.issued[1].size() == 3);
  CHECK(m.arbiter_stats().collisions == 0);
  CHECK(m.arbiter_stats().adjacent_merges == 1);
}

TEST_CASE("seed001 ¶88: p = 4, non-zeros d1 d2 d3, two weights: cycle 1 computes d1w1 d2w1 d3w1 d1w2",
          "[sparse][seed001][golden]") {
  Cell cell({1, 2, 3, 0}, {{10, 0, 0}, {20, 1, 1}});
  MultiplierArray m(SparseUnitKind::Unit1400, 4, 2, 9);
  const Recorded r = run(m, cell.pairs());
  CHECK(r.issued[0] == Operands{{1, 10}, {2, 10}, {3, 10}, {1, 20}});
}

TEST_CASE("seed001 ¶160: 60 % non-zeros with a 3x3 kernel gives p = 6", "[sparse][seed001][golden]") {
  CHECK(multipliers_for_density(0.6, 3, 3) == 6);
  CHECK(multipliers_for_density(1.0, 3, 3) == 9);  // no sparsity: k^2 ports
  CHECK(multipliers_for_density(0.75, 2, 2) == 3);
}

TEST_CASE("seed001 structural numbers: 5x5 padded to 7x7, VAR 3x3 for k = 2, 25 MIN ports for k = 3",
          "[sparse][seed001][golden]") {
  ConvShape g;
  g.hi = g.wi = 5;
  g.kh = g.kw = 2;
  g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 1;
  CHECK(g.padded_hi() == 7);
  CHECK(g.padded_wi() == 7);
  CHECK(g.padded_hi() * g.padded_wi() == 49);  // register bank 1030: 49 registers
  CHECK(var_side(2) == 3);
  CHECK(var_side(3) * var_side(3) == 25);
}
