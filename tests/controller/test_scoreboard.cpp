#include <catch2/catch.hpp>

#include "models/scoreboard/Scoreboard.h"

using namespace npusim;

namespace {
Dependency on(std::uint64_t id) {
  Dependency d;
  d.producer = id;
  return d;
}
}  // namespace

TEST_CASE("scoreboard knows completed producers and keeps only the in-flight window", "[controller]") {
  Scoreboard sb;
  for (std::uint64_t id : {2, 5, 9}) sb.dispatched(id);
  CHECK_FALSE(sb.is_complete(5));
  sb.completed(5);
  CHECK(sb.is_complete(5));
  CHECK_FALSE(sb.is_complete(2));
  CHECK(sb.in_flight() == 3);  // 2 still blocks the window
  sb.completed(2);
  CHECK(sb.in_flight() == 1);  // 2 and 5 retired
  CHECK(sb.is_complete(1));    // older than anything in flight
  CHECK_FALSE(sb.dependencies_met({on(9)}));
  sb.completed(9);
  CHECK(sb.dependencies_met({on(2), on(9)}));
  CHECK(sb.in_flight() == 0);
}
