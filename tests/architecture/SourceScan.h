#pragma once
// The source tree read as text, for the architecture tests that hold its sizes and names.
#include <cstddef>
#include <string>
#include <vector>

namespace npusim::test {

// Every .h and .cpp file below `folder` (relative to the repository; none if it does not
// exist), as paths relative to the repository, sorted.
std::vector<std::string> source_files(const std::string& folder);

// The lines of a file given relative to the repository.
std::vector<std::string> source_lines(const std::string& file);

// One line of C++ split into its code, with string and character literals emptied ("" and
// '') and comments dropped, and the string literals it holds (their text as written).
struct LexedLine {
  std::string code;
  std::vector<std::string> strings;
};

// `in_comment` carries a block comment from one line to the next.
LexedLine lex_line(const std::string& line, bool& in_comment);

// A function definition: its name as written at the definition (qualified by the class when
// it is defined inside one), the line of its signature and of its closing brace (from 1).
struct FunctionSpan {
  std::string name;
  std::size_t first = 0;
  std::size_t last = 0;
  std::size_t lines() const { return last - first + 1; }
};

// The function definitions of a file laid out as this code base lays them out: a definition
// starts at the indentation of its scope (column 0, or inside a class body two more) and ends
// at the first later line that is only "}" at that indentation, unless its braces close on
// the signature's own lines. Lambdas and nested blocks are inside the function they sit in.
std::vector<FunctionSpan> function_spans(const std::vector<std::string>& lines);

}  // namespace npusim::test
