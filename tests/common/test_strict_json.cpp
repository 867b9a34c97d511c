#include <catch2/catch.hpp>

#include <string>

#include "sim/common/InputError.h"
#include "sim/common/StrictJson.h"

using npusim::InputError;
using npusim::kMaxJsonDepth;
using npusim::parse_strict_json;
using Catch::Matchers::Contains;

namespace {

InputError rejection(const std::string& text, std::size_t first_line = 1) {
  try {
    parse_strict_json<nlohmann::json>(text, "f.json", first_line);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("accepted: " << text.substr(0, 200));
  throw;  // unreachable
}

std::string nested_arrays(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

}  // namespace

TEST_CASE("strict JSON: a key given twice names both lines and the object", "[json]") {
  const InputError e = rejection("{\n  \"chip\": {\n    \"slaves\": 4,\n    \"cus\": 2,\n    \"slaves\": 8\n  }\n}\n");
  CHECK(e.file() == "f.json");
  CHECK(e.location() == "line 5");
  CHECK_THAT(e.reason(), Contains("\"slaves\" given twice") && Contains("/chip") && Contains("first at line 3"));
}

TEST_CASE("strict JSON: duplicates are per object, and arrays count in the pointer", "[json]") {
  // The same key in sibling objects is fine...
  const auto doc = parse_strict_json<nlohmann::json>(R"({"a":{"x":1},"b":{"x":2},"l":[{"x":1},{"x":2}]})", "f");
  CHECK(doc["b"]["x"] == 2);
  // ...inside the second element of a list it is named by its index.
  const InputError e = rejection(R"({"l":[{"x":1},[3,[4]],{"x":1,"x":2}]})");
  CHECK_THAT(e.reason(), Contains("in the object at /l/2"));
  // ordered_json is checked the same way.
  CHECK_THROWS_AS(parse_strict_json<nlohmann::ordered_json>(R"({"k":1,"k":1})", "f"), InputError);
}

TEST_CASE("strict JSON: nesting is limited before anything recurses", "[json]") {
  CHECK_NOTHROW(parse_strict_json<nlohmann::json>(nested_arrays(kMaxJsonDepth), "f"));
  CHECK_THAT(rejection(nested_arrays(kMaxJsonDepth + 1)).reason(), Contains("nested more than"));
  // The audit's crashers: 5,000 deep in a trace field, 20,000 deep objects in a config.
  CHECK_THAT(rejection("{\"offset\":" + nested_arrays(5000) + "}").reason(), Contains("nested more than"));
  std::string objects;
  for (int i = 0; i < 20000; ++i) objects += "{\"a\":";
  objects += "1" + std::string(20000, '}');
  const InputError deep = rejection(objects);
  CHECK(deep.location() == "line 1, column " + std::to_string(5 * kMaxJsonDepth + 1));
}

TEST_CASE("strict JSON: malformed text is placed by line and column in the file's numbering", "[json]") {
  CHECK(rejection("{\n  \"a\": 1,,\n}").location() == "line 2, column 10");
  // A trace line is line 7 of its file.
  const InputError e = rejection(R"({"id":0,"op":)", 7);
  CHECK(e.location() == "line 7, column 14");
  CHECK_THAT(e.reason(), Contains("malformed JSON"));
  CHECK(rejection(R"({"id":0,"id":1})", 7).location() == "line 7");
}
