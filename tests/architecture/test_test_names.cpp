// Test names ctest can run (issue 46 follow-up): catch_discover_tests hands each name to
// CMake as a list element, so a name with ';' is cut there, and the cut name matches no test
// case: ctest then reports "Passed" with nothing run. 18 tests were silent that way.
#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include "architecture/SourceScan.h"

TEST_CASE("test names: no TEST_CASE name holds a semicolon, which ctest would cut and never run", "[architecture]") {
  const std::regex name(R"re(TEST_CASE\(\s*"([^"]*)")re");
  std::size_t cases = 0;
  for (const std::string& file : npusim::test::source_files("tests"))
    for (const std::string& line : npusim::test::source_lines(file))
      for (std::sregex_iterator m(line.begin(), line.end(), name), end; m != end; ++m) {
        ++cases;
        INFO(file << ": " << (*m)[1].str());
        CHECK((*m)[1].str().find(';') == std::string::npos);
      }
  CHECK(cases > 500);  // the scan reads the test files at all
}
