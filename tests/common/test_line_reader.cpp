// LineReader (issue 28): the same lines as std::getline, but a line past the cap is refused
// once cap + 1 of its bytes are seen, naming the file and the line.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>

#include "sim/common/ByteSize.h"
#include "sim/common/InputError.h"
#include "sim/common/LineReader.h"

using npusim::LineReader;

namespace {

std::vector<std::string> getline_lines(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> reader_lines(const std::string& text, std::size_t cap) {
  std::istringstream in(text);
  LineReader reader(in, "t.jsonl", cap);
  std::vector<std::string> lines;
  for (std::string line; reader.next(line);) {
    lines.push_back(line);
    CHECK(reader.line_number() == lines.size());
  }
  return lines;
}

// Lines of random lengths (some longer than the reader's 64 KiB chunk), with or without a
// final newline, with empty lines and NUL bytes.
std::string random_text(std::mt19937& rng) {
  std::string text;
  const int lines = int(rng() % 6);
  for (int i = 0; i < lines; ++i) {
    const std::size_t length = rng() % 4 == 0 ? rng() % 200000 : rng() % 40;
    for (std::size_t j = 0; j < length; ++j) text += char(rng() % 7 == 0 ? '\0' : 'a' + rng() % 26);
    if (i + 1 < lines || rng() % 2) text += '\n';
  }
  return text;
}

}  // namespace

TEST_CASE("line reader: the lines std::getline gives, across chunk boundaries", "[input][trace]") {
  std::mt19937 rng(28);
  for (int i = 0; i < 200; ++i) {
    const std::string text = random_text(rng);
    INFO("case " << i << ", " << text.size() << " bytes");
    CHECK(reader_lines(text, 1 << 20) == getline_lines(text));
  }
  CHECK(reader_lines("", 10).empty());
  CHECK(reader_lines("\n\n", 10) == std::vector<std::string>{"", ""});
}

TEST_CASE("line reader: a line at the cap is read, one byte more is refused with its line number",
          "[input][trace]") {
  const std::size_t cap = 100000;  // more than one 64 KiB chunk
  const std::string at_cap(cap, 'x');
  CHECK(reader_lines("a\n" + at_cap + "\nb", cap) == std::vector<std::string>{"a", at_cap, "b"});
  CHECK(reader_lines(at_cap, cap) == std::vector<std::string>{at_cap});
  for (const std::string& text : {"a\n\n" + at_cap + "y\nb\n", "a\n\n" + at_cap + "y"}) {
    std::istringstream in(text);
    LineReader reader(in, "t.jsonl", cap);
    std::string line;
    REQUIRE(reader.next(line));
    REQUIRE(reader.next(line));
    try {
      reader.next(line);
      FAIL("the long line was read");
    } catch (const npusim::InputError& e) {
      CHECK(e.file() == "t.jsonl");
      CHECK(std::string(e.what()) == "t.jsonl: line 3: line longer than 97.7 KiB: npusim reads no line longer than that");
    }
  }
  CHECK(npusim::byte_size_text(std::size_t(64) << 20) == "64 MiB");
  CHECK(npusim::byte_size_text(100) == "100 B");
}
