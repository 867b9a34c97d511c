// The matrix unit caches one plan per key: two layers share a key exactly when their
// full descriptions (ConvShape::to_string) and result paths are the same.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "models/matrix_unit/WfoldMapping.h"

using namespace npusim;

TEST_CASE("wfold plan key: equal exactly when the layer description and result path are", "[matrix_unit]") {
  std::mt19937_64 rng(36);
  auto fields = [](ConvShape& s) {
    return std::vector<std::uint32_t*>{&s.n,  &s.hi, &s.wi,      &s.ci,         &s.co,       &s.kh,        &s.kw,
                                       &s.sh, &s.sw, &s.pad_top, &s.pad_bottom, &s.pad_left, &s.pad_right, &s.element_bytes};
  };
  int equal = 0;
  for (int i = 0; i < 2000; ++i) {
    ConvShape a;
    for (std::uint32_t* f : fields(a)) *f = 1 + std::uint32_t(rng() % 64);
    ConvShape b = a;  // the same layer, or one field off
    if (rng() % 2) {
      std::uint32_t* f = fields(b)[rng() % 14];
      *f = 1 + std::uint32_t(rng() % 64);
    }
    const bool ra = rng() % 2, rb = rng() % 4 ? ra : !ra;
    const bool same_description = a.to_string() == b.to_string() && ra == rb;
    CHECK((wfold_plan_key(a, ra) == wfold_plan_key(b, rb)) == same_description);
    equal += same_description;
  }
  CHECK(equal > 0);
}
