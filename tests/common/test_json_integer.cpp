// The checked reader every user integer goes through: it never narrows, rounds
// or accepts a sign, a fraction or an exponent.
#include <catch2/catch.hpp>

#include "sim/common/JsonInteger.h"

using npusim::json_integer;
using npusim::json_integer_as;
using nlohmann::json;

TEST_CASE("json_integer accepts only integers inside the range", "[input]") {
  CHECK(json_integer(json::parse("5")) == 5u);
  CHECK(json_integer(json::parse("18446744073709551615")) == 18446744073709551615u);
  CHECK(json_integer(json(3)) == 3u);  // built in code: a signed integer
  CHECK_FALSE(json_integer(json::parse("-1")));
  CHECK_FALSE(json_integer(json(-1)));
  CHECK_FALSE(json_integer(json::parse("1.0")));
  CHECK_FALSE(json_integer(json::parse("1e3")));
  CHECK_FALSE(json_integer(json::parse("\"7\"")));
  CHECK_FALSE(json_integer(json::parse("true")));
  CHECK(json_integer(json::parse("1"), 1, 31) == 1u);
  CHECK(json_integer(json::parse("31"), 1, 31) == 31u);
  CHECK_FALSE(json_integer(json::parse("0"), 1, 31));
  CHECK_FALSE(json_integer(json::parse("32"), 1, 31));
}

TEST_CASE("json_integer_as never wraps into a narrower type", "[input]") {
  CHECK(json_integer_as<std::uint32_t>(json::parse("4294967295")) == 4294967295u);
  CHECK_FALSE(json_integer_as<std::uint32_t>(json::parse("4294967296")));
  CHECK_FALSE(json_integer_as<std::uint32_t>(json::parse("4294967301")));  // 2^32 + 5, once read as 5
  CHECK_FALSE(json_integer_as<std::uint32_t>(json::parse("4294967301"), 0, 1ull << 40));  // max capped at the type
  CHECK_FALSE(json_integer_as<std::uint8_t>(json::parse("256")));
}
