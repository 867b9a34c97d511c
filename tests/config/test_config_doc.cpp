#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/config/ConfigSchema.h"
#include "TestPaths.h"

using namespace npusim;

namespace {

const std::string kBegin = "<!-- config-reference:begin (generated from sim/config/ConfigSchema.cpp) -->\n";
const std::string kEnd = "<!-- config-reference:end -->";

std::string doc_path() { return (std::filesystem::path(NPUSIM_SOURCE_DIR) / "docs" / "config.md").string(); }

std::string read_doc() {
  std::ifstream in(doc_path());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Where the generated table sits in the doc: [first, last) between the markers.
std::pair<std::size_t, std::size_t> table_span(const std::string& doc) {
  std::size_t begin = doc.find(kBegin);
  std::size_t end = doc.find(kEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin) return {std::string::npos, 0};
  return {begin + kBegin.size(), end};
}

}  // namespace

TEST_CASE("config: docs/config.md lists exactly the keys of the schema", "[config]") {
  std::string doc = read_doc();
  auto [first, last] = table_span(doc);
  REQUIRE(first != std::string::npos);
  std::string expected = config_reference_markdown();
  INFO("docs/config.md is out of date. Regenerate it with\n"
       "  ./tests/npusim_tests \"[config-doc-regenerate]\"\n"
       "(from the build directory) or paste this table between the markers:\n"
       << expected);
  CHECK(doc.substr(first, last - first) == expected);
}

TEST_CASE("config: reference table has one row per key", "[config]") {
  std::string table = config_reference_markdown();
  std::size_t rows = std::count(table.begin(), table.end(), '\n');
  CHECK(rows == config_schema().size() + core_kind_keys().size() + 2);  // header and separator
  for (const auto& key : config_schema()) CHECK_THAT(table, Catch::Matchers::Contains("| `" + key.path + "` |"));
  for (const auto& key : core_kind_keys()) CHECK_THAT(table, Catch::Matchers::Contains("| `" + key.path + "` |"));
}

// Hidden: rewrites the table in the committed doc. Run it on purpose after changing the schema.
TEST_CASE("config: regenerate the key table in docs/config.md", "[.][config-doc-regenerate]") {
  std::string doc = read_doc();
  auto [first, last] = table_span(doc);
  REQUIRE(first != std::string::npos);
  doc.replace(first, last - first, config_reference_markdown());
  std::ofstream(doc_path()) << doc;
}
