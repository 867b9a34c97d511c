// QuotedNames quotes plain names itself and leaves the rest to the JSON library: both
// paths must give exactly the library's literal.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/report/QuotedNames.h"

using namespace npusim;

TEST_CASE("report: quoted names are the JSON library's string literals", "[report]") {
  std::mt19937_64 rng(3);
  const std::string alphabet = std::string("abcXYZ019 .#/-_:") + "\"\\\n\t\r" + std::string(1, '\x01') + "\x7f";
  QuotedNames names;
  for (int i = 0; i < 2000; ++i) {
    std::string name;
    const std::size_t length = rng() % 12;
    // Half the names are plain: only the first 16 characters of the alphabet.
    const std::size_t pool = i % 2 == 0 ? 16 : alphabet.size();
    for (std::size_t k = 0; k < length; ++k) name += alphabet[rng() % pool];
    INFO("name " << nlohmann::json(name).dump());
    REQUIRE(names.json(name) == nlohmann::json(name).dump());
    REQUIRE(QuotedNames::json_uncached(name) == nlohmann::json(name).dump());
  }
  CHECK(names.json("stage 1/64 #12") == "\"stage 1/64 #12\"");
  CHECK(names.json("a\"b") == "\"a\\\"b\"");
}
