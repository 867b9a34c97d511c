// The partition block (seed001 §2.2): m sub-maps that cover the output once, balanced
// to the threshold where single boundary moves can get there.
#include <catch2/catch.hpp>

#include <random>

#include "models/scheduling_engine/SparsityPartition.h"

using namespace npusim;

namespace {

ConvShape shape(std::uint32_t h, std::uint32_t w, std::uint32_t c, std::uint32_t k) {
  ConvShape g;
  g.hi = h;
  g.wi = w;
  g.ci = c;
  g.co = 1;
  g.kh = g.kw = k;
  g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = k / 2;
  return g;
}

// Non-zero with probability density(x): lets a test make one side of the map denser.
template <class Density>
CompressedMap random_map(const ConvShape& g, std::uint32_t seed, Density&& density) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<std::int8_t> dense(std::size_t(g.hi) * g.wi * g.ci);
  for (std::uint32_t y = 0; y < g.hi; ++y)
    for (std::uint32_t x = 0; x < g.wi; ++x)
      for (std::uint32_t c = 0; c < g.ci; ++c)
        dense[(std::size_t(y) * g.wi + x) * g.ci + c] = u(rng) < density(y, x) ? 1 : 0;
  return compress_map(dense.data(), g.hi, g.wi, g.ci);
}

void check_covers_output_once(const ConvShape& g, const SparsityPartition& p) {
  std::vector<int> owner(std::size_t(g.ho()) * g.wo(), 0);
  for (const UnitRegion& r : p.regions)
    for (std::uint32_t y = r.oy0; y < r.oy1; ++y)
      for (std::uint32_t x = r.ox0; x < r.ox1; ++x) ++owner[std::size_t(y) * g.wo() + x];
  CHECK(std::all_of(owner.begin(), owner.end(), [](int n) { return n == 1; }));
}

}  // namespace

TEST_CASE("Partition: m regions tile the output map exactly once, for any m", "[sparse][partition]") {
  const ConvShape g = shape(20, 13, 2, 3);
  const CompressedMap map = random_map(g, 1, [](std::uint32_t, std::uint32_t) { return 0.4; });
  for (std::uint32_t m : {1u, 2u, 3u, 4u, 5u, 6u, 9u, 16u, 64u}) {
    CAPTURE(m);
    const SparsityPartition p = partition_by_sparsity(g, map, {m, PartitionPolicy::Balanced,
                                                               BalanceMetric::NonzeroCount, 0.03});
    CHECK(p.regions.size() == m);
    check_covers_output_once(g, p);
  }
}

TEST_CASE("Partition: a uniformly sparse map balances to within 3 % of the mean non-zero count",
          "[sparse][partition]") {
  // One row or column moves about 1.5 % of a unit's work here: fine enough for 3 %.
  const ConvShape g = shape(128, 128, 8, 3);
  const CompressedMap map = random_map(g, 2, [](std::uint32_t, std::uint32_t) { return 0.3; });
  const SparsityPartition p = partition_by_sparsity(g, map, {4, PartitionPolicy::Balanced,
                                                             BalanceMetric::NonzeroCount, 0.03});
  CHECK(p.imbalance <= 0.03);
}

TEST_CASE("Partition: on a map dense on the left, balancing moves columns and narrows the imbalance",
          "[sparse][partition]") {
  const ConvShape g = shape(32, 64, 4, 3);
  const CompressedMap map =
      random_map(g, 3, [](std::uint32_t, std::uint32_t x) { return x < 32 ? 0.6 : 0.05; });
  const PartitionRequest equal{2, PartitionPolicy::Equal, BalanceMetric::NonzeroCount, 0.03};
  PartitionRequest balanced = equal;
  balanced.policy = PartitionPolicy::Balanced;
  const SparsityPartition e = partition_by_sparsity(g, map, equal);
  const SparsityPartition b = partition_by_sparsity(g, map, balanced);
  CHECK(e.moves == 0);
  CHECK(e.imbalance > 1.0);  // the left unit holds most of the work
  CHECK(b.moves > 10);
  CHECK(b.imbalance <= 0.03);
  CHECK(b.regions[0].ox1 < 32);  // the dense half's unit got narrower
  check_covers_output_once(g, b);
}

TEST_CASE("Partition: the seed's own metric, non-zero percentage per partition", "[sparse][partition]") {
  // Fig. 3: a 40 % cell next to a 60 % one; columns move towards the sparser cell.
  const ConvShape g = shape(32, 64, 1, 1);
  const CompressedMap map =
      random_map(g, 4, [](std::uint32_t, std::uint32_t x) { return x < 32 ? 0.4 : (x < 40 ? 0.9 : 0.5); });
  const SparsityPartition p =
      partition_by_sparsity(g, map, {2, PartitionPolicy::Balanced, BalanceMetric::NonzeroPercent, 0.03});
  CHECK(p.regions[0].ox1 > 32);  // cell 1 took columns from cell 2
  CHECK(p.imbalance <= 0.03);
}

TEST_CASE("Scheduling engine: a map is sparse from 80 % zeros (seed001 §2.1)", "[sparse][partition][seed001]") {
  CHECK(is_sparse(0.8, 0.8));
  CHECK(is_sparse(0.95, 0.8));
  CHECK_FALSE(is_sparse(0.4, 0.8));  // the seed's dense example, 60:40 non-zero:zero
}
