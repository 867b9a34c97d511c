// json_values_at_most (issue 28): the trace reader's count of a long line's values without
// parsing it, against the values of the parsed document counted node by node.
#include <catch2/catch.hpp>

#include <random>

#include <nlohmann/json.hpp>

#include "sim/common/JsonValueCount.h"

using npusim::json_values_at_most;

namespace {

// Strings with the characters the count must not take for structure.
std::string tricky_string(std::mt19937& rng) {
  const char* pieces[] = {",", "[", "{", "\"", "\\", "a", "]", "}", "\\\"", "x,y"};
  std::string s;
  for (int i = int(rng() % 6); i > 0; --i) s += pieces[rng() % 10];
  return s;
}

nlohmann::json random_document(std::mt19937& rng, int depth) {
  const unsigned kind = depth > 4 ? rng() % 4 : rng() % 6;
  switch (kind) {
    case 0: return nullptr;
    case 1: return int(rng() % 2000) - 1000;
    case 2: return tricky_string(rng);
    case 3: return rng() % 2 == 0;
    case 4: {
      nlohmann::json a = nlohmann::json::array();
      for (int i = int(rng() % 5); i > 0; --i) a.push_back(random_document(rng, depth + 1));
      return a;
    }
    default: {
      nlohmann::json o = nlohmann::json::object();
      for (int i = int(rng() % 5); i > 0; --i) o[tricky_string(rng) + std::to_string(i)] = random_document(rng, depth + 1);
      return o;
    }
  }
}

// Every node once, and the empty objects and arrays (which the count takes for one value more).
void count_nodes(const nlohmann::json& j, std::uint64_t& values, std::uint64_t& empty) {
  ++values;
  if (j.is_structured() && j.empty()) ++empty;
  if (j.is_structured())
    for (const auto& child : j) count_nodes(child, values, empty);
}

}  // namespace

TEST_CASE("json_values_at_most: the values of random documents, counted without parsing", "[json][trace]") {
  std::mt19937 rng(28);
  for (int i = 0; i < 500; ++i) {
    const nlohmann::json doc = random_document(rng, 0);
    const std::string text = doc.dump(rng() % 2 ? -1 : 2);
    INFO(text);
    std::uint64_t values = 0, empty = 0;
    count_nodes(doc, values, empty);
    CHECK(json_values_at_most(text) == values + empty);
  }
  CHECK(json_values_at_most(R"({"a":"x,[{y\"]"})") == 2);
  CHECK(json_values_at_most("[0,0,0]") == 4);  // the array and three zeros
}
