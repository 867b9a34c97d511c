// Size limits (issue 29, widened from apps/ to all of sim/, models/ and apps/): no function
// is longer than 60 lines and no file longer than 400. Today's offenders are listed by name; the lists only shrink:
// an entry that is no longer needed fails too, so it goes with the change that fixes it.
#include <catch2/catch.hpp>

#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "architecture/SourceScan.h"

using npusim::test::FunctionSpan;
using npusim::test::function_spans;
using npusim::test::source_files;
using npusim::test::source_lines;

namespace {

constexpr std::size_t kMaxFunctionLines = 60;
constexpr std::size_t kMaxFileLines = 400;

// Functions over the limit today: (name as the scanner reads it, file). Remove an entry
// when its function is cut up or moves.
const std::set<std::pair<std::string, std::string>> kLongFunctions = {
};

// Files over the limit today.
const std::set<std::string> kLargeFiles = {
};

struct FoundFunction {
  FunctionSpan span;
  std::string file;
};

// The folders of the simulator's own code, held to the limits.
const std::vector<std::string> kSourceFolders = {"sim", "models", "apps"};

// Every .h and .cpp file of kSourceFolders.
std::vector<std::string> project_files() {
  std::vector<std::string> files;
  for (const auto& folder : kSourceFolders) {
    auto more = source_files(folder);
    files.insert(files.end(), more.begin(), more.end());
  }
  return files;
}

// Every function definition in sim/, models/ and apps/, by (name, file); a name defined
// twice in one file (overloads) keeps its longest.
std::map<std::pair<std::string, std::string>, FoundFunction> project_functions() {
  std::map<std::pair<std::string, std::string>, FoundFunction> found;
  for (const auto& file : project_files())
    for (const auto& span : function_spans(source_lines(file))) {
      auto [it, added] = found.try_emplace({span.name, file}, FoundFunction{span, file});
      if (!added && span.lines() > it->second.span.lines()) it->second.span = span;
    }
  return found;
}

}  // namespace

TEST_CASE("sizes: no function in sim/, models/ or apps/ is longer than 60 lines, but the listed ones", "[architecture]") {
  const auto functions = project_functions();
  REQUIRE(functions.size() > 500);  // the scanner reads the tree
  for (const auto& [key, f] : functions) {
    if (kLongFunctions.count(key)) continue;
    INFO(f.span.name << " in " << f.file << ":" << f.span.first << " has " << f.span.lines()
                     << " lines; cut it into named pieces");
    CHECK(f.span.lines() <= kMaxFunctionLines);
  }
}

TEST_CASE("sizes: every listed long function is still too long (the list only shrinks)", "[architecture]") {
  const auto functions = project_functions();
  for (const auto& key : kLongFunctions) {
    const auto it = functions.find(key);
    INFO(key.first << " in " << key.second << " is "
                   << (it == functions.end() ? "gone or moved"
                                             : std::to_string(it->second.span.lines()) + " lines now")
                   << "; remove it from kLongFunctions");
    CHECK((it != functions.end() && it->second.span.lines() > kMaxFunctionLines));
  }
}

TEST_CASE("sizes: no file in sim/, models/ or apps/ is longer than 400 lines, but the listed ones", "[architecture]") {
  const auto files = project_files();
  REQUIRE(files.size() > 200);
  for (const auto& file : files) {
    const std::size_t lines = source_lines(file).size();
    INFO(file << " has " << lines << " lines");
    CHECK((kLargeFiles.count(file) || lines <= kMaxFileLines));
  }
  for (const auto& file : kLargeFiles) {
    const std::size_t lines = source_lines(file).size();
    INFO(file << " has " << lines << " lines; remove it from kLargeFiles");
    CHECK(lines > kMaxFileLines);
  }
}

// The scanner against a text whose functions are counted by hand.
TEST_CASE("sizes: the function scanner measures definitions as this code base lays them out", "[architecture]") {
  const std::vector<std::string> text = {
      "namespace npusim {",                                 // 1
      "int one_liner(int a) { return a + 1; }",             // 2
      "std::map<std::string, std::function<void(int)>> two(",  // 3
      "    int a, int b) {",                                // 4
      "  const char* s = \"}\";  // a brace in a string",   // 5
      "  auto f = [](int x) {",                             // 6
      "    return x;",                                      // 7
      "  };",                                               // 8
      "}",                                                  // 9
      "class Reader {",                                     // 10
      " public:",                                           // 11
      "  Reader() : a_{1} {}",                              // 12
      "  void read(int x) {",                               // 13
      "    if (x) {",                                       // 14
      "    }",                                              // 15
      "  }",                                                // 16
      "  int a_;",                                          // 17
      "};",                                                 // 18
      "void Reader::later();",                              // 19
      "/* void hidden() {",                                 // 20
      "} */",                                               // 21
      "void last() {",                                      // 22
      "  char c = '{';",                                    // 23
      "}",                                                  // 24
      "}  // namespace npusim",                             // 25
  };
  std::vector<std::string> found;
  for (const auto& f : function_spans(text))
    found.push_back(f.name + " " + std::to_string(f.first) + "-" + std::to_string(f.last));
  CHECK(found == std::vector<std::string>{"one_liner 2-2", "two 3-9", "Reader::Reader 12-12", "Reader::read 13-16",
                                          "last 22-24"});
}

// Not a check: every function of sim/, models/ and apps/ from the longest, to compare with
// another counter, e.g.
//   ctags -R --kinds-C++=f --fields=+ne -x --_xformat="%{end} %{line} %N %F" sim models apps
TEST_CASE("sizes: list the longest functions", "[.sizes-list]") {
  std::multimap<std::size_t, std::string, std::greater<>> by_length;
  for (const auto& [key, f] : project_functions())
    by_length.emplace(f.span.lines(), f.span.name + " " + f.file + ":" + std::to_string(f.span.first));
  for (const auto& [lines, where] : by_length) std::cout << lines << " " << where << "\n";
}
