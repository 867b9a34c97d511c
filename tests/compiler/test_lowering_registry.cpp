// The lowering registry (apps/compiler/emit/Lowering.h): every engine that computes layers
// has exactly one lowering, found by the name a layer's tiling gives, listed by rank.
#include <catch2/catch.hpp>

#include <set>
#include <stdexcept>

#include "apps/compiler/emit/Lowering.h"

using namespace npusim;

namespace {

class DuplicateMatrix : public Lowering {
 public:
  DuplicateMatrix() : Lowering("matrix", 0) {}
  void emit_tile(EmitContext&, std::uint32_t, std::uint64_t) const override {}
};

}  // namespace

TEST_CASE("lowerings are registered once each and listed by rank", "[lowering]") {
  std::vector<std::string> names;
  std::set<int> ranks;
  for (const Lowering* l : lowerings()) {
    names.push_back(l->name());
    ranks.insert(l->rank());
    CHECK(&lowering(l->name()) == l);
  }
  CHECK(names == std::vector<std::string>{"sparse", "matrix", "shader", "vector", "dma"});
  CHECK(ranks.size() == names.size());
  CHECK(find_lowering("fetch_ml") == nullptr);
  CHECK_THROWS_AS(lowering("no-such-engine"), std::logic_error);
  CHECK_THROWS_AS(register_lowering(std::make_unique<DuplicateMatrix>()), std::logic_error);
}
