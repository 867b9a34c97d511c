// The Benes network every MIN of the sparse engine will use (seed001, issue 10):
// any permutation routes in one pass, checked by pushing distinct values through
// the switch settings, and non-permutations cost extra passes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

#include "models/min_network/BenesNetwork.h"

using npusim::BenesNetwork;
using npusim::BenesStats;

namespace {

// Routes `perm`, pushes value 1000 + i in at input i, and checks it comes out at perm[i].
bool routes_in_one_pass(const BenesNetwork& net, const std::vector<std::uint32_t>& perm) {
  std::vector<std::int64_t> in(perm.size());
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = 1000 + std::int64_t(i);
  const auto out = net.apply(net.route(perm), in);
  for (std::size_t i = 0; i < perm.size(); ++i)
    if (out[perm[i]] != in[i]) return false;
  return true;
}

}  // namespace

TEST_CASE("Benes: N ports have 2*log2(N) - 1 stages of N/2 switches", "[benes]") {
  for (std::uint32_t l = 1; l <= 10; ++l) {
    const BenesNetwork net(1u << l);
    CHECK(net.stages() == 2 * l - 1);
    std::vector<std::uint32_t> identity(1u << l);
    std::iota(identity.begin(), identity.end(), 0u);
    const auto r = net.route(identity);
    REQUIRE(r.stages.size() == 2 * l - 1);
    for (const auto& stage : r.stages) CHECK(stage.size() == (1u << l) / 2);
  }
}

TEST_CASE("Benes: all 40,320 permutations of 8 ports route in one pass", "[benes]") {
  const BenesNetwork net(8);
  std::vector<std::uint32_t> perm(8);
  std::iota(perm.begin(), perm.end(), 0u);
  std::size_t routed = 0, total = 0;
  do {
    ++total;
    routed += routes_in_one_pass(net, perm);
  } while (std::next_permutation(perm.begin(), perm.end()));
  CHECK(total == 40320);
  CHECK(routed == 40320);
}

TEST_CASE("Benes: 1,000 random permutations of 64 and of 256 ports route in one pass", "[benes]") {
  std::mt19937 rng(20261123);
  for (std::uint32_t n : {64u, 256u}) {
    const BenesNetwork net(n);
    std::vector<std::uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0u);
    std::size_t routed = 0;
    for (int t = 0; t < 1000; ++t) {
      std::shuffle(perm.begin(), perm.end(), rng);
      routed += routes_in_one_pass(net, perm);
    }
    CHECK(routed == 1000);
  }
}

TEST_CASE("Benes: a two-to-one request is a conflict and costs a second pass", "[benes]") {
  const BenesNetwork net(8);
  BenesStats stats;
  // Inputs 1 and 5 both want output 3; input 6 is idle.
  const std::vector<std::int64_t> request = {0, 3, 2, 1, 4, 3, -1, 7};
  const auto passes = net.route_requests(request, stats);
  CHECK(passes.size() == 2);
  CHECK(stats.passes == 2);
  CHECK(stats.conflicts == 1);
  CHECK(stats.routed == 7);  // every request but the idle input's
  // The second pass delivers input 5's value to output 3.
  std::vector<std::int64_t> in(8);
  std::iota(in.begin(), in.end(), 100);
  CHECK(net.apply(passes[0], in)[3] == 101);
  CHECK(net.apply(passes[1], in)[3] == 105);

  BenesStats clean;
  CHECK(net.route_requests({7, 6, 5, 4, 3, 2, 1, 0}, clean).size() == 1);
  CHECK(clean.conflicts == 0);
}

TEST_CASE("Benes: port counts that are not a power of two are refused", "[benes]") {
  for (std::uint32_t n : {0u, 1u, 6u, 12u, 100u})
    CHECK_THROWS_WITH(BenesNetwork(n), Catch::Matchers::Contains("power-of-two port count"));
  const BenesNetwork net(4);
  CHECK_THROWS(net.route({0, 0, 1, 2}));  // not a permutation
}
