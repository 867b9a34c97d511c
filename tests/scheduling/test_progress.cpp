// Building blocks of the dependency modes: granules, progress lookups, overrides.
#include <catch2/catch.hpp>

#include "models/scoreboard/Progress.h"
#include "models/scoreboard/Scoreboard.h"

using namespace npusim;

namespace {
TensorOperand nhwc(std::vector<std::uint64_t> shape, DType dtype = DType::Int8) {
  TensorOperand t;
  t.space = AddressSpace::Nram;
  t.shape = std::move(shape);
  t.dtype = dtype;
  return t;
}
}  // namespace

TEST_CASE("scheduling: granules cut the tensor along the declared dimension", "[scheduling]") {
  const TensorOperand fm = nhwc({2, 8, 16, 4}, DType::Int32);  // a row is 16*4 int32 = 256 bytes
  CHECK(granule_bytes(fm, "rows", 0) == 16 * 4 * 4);
  CHECK(granule_bytes(fm, "batch", 0) == 8 * 16 * 4 * 4);
  CHECK(granule_bytes(fm, "channels", 0) == 8 * 16 * 4 * 4);
  CHECK(granule_bytes(fm, "tiles", 100) == 100);
  CHECK(granule_bytes(fm, "tiles", 1 << 30) == fm.bytes());  // never more than the tensor
  CHECK(granule_bytes(nhwc({4, 32}), "rows", 0) == 32);     // rank 2: the outer dimension
}

TEST_CASE("scheduling: progress answers how much is final when", "[scheduling]") {
  Progress p;
  p.written = {{10, 100}, {20, 200}, {35, 300}};
  p.done = 40;
  CHECK(p.written_by(9) == 0);
  CHECK(p.written_by(10) == 100);
  CHECK(p.written_by(34) == 200);
  CHECK(p.written_by(100) == 300);
  CHECK(p.time_written(0) == 0);
  CHECK(p.time_written(1) == 10);
  CHECK(p.time_written(101) == 20);
  CHECK(p.time_written(300) == 35);
  CHECK(p.time_written(301) == 40);  // beyond the last point: the real end
}

TEST_CASE("scheduling: the run-wide override rewrites every dependency", "[scheduling]") {
  std::vector<Dependency> deps = {{1, DependencyMode::Full, ""}, {2, DependencyMode::Staged, "rows"}};
  auto same = resolve_dependency_modes(deps, DependencyRelease::AsTraced);
  CHECK(same[1].granularity == "rows");
  auto staged = resolve_dependency_modes(deps, DependencyRelease::Staged);
  CHECK(staged[0].mode == DependencyMode::Staged);
  CHECK(staged[0].granularity == "tiles");  // no declared granule: the producer's own steps
  CHECK(staged[1].granularity == "rows");
  auto two = resolve_dependency_modes(deps, DependencyRelease::TwoPhase);
  CHECK(two[1].mode == DependencyMode::TwoPhase);
  CHECK(two[1].granularity.empty());
}
