#pragma once
#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace npusim {

// Reads a stream line by line, like std::getline, but never holds more than `max_bytes` of one
// line: a longer line is refused as soon as its first max_bytes + 1 bytes have been seen, so a
// huge line costs neither its size in memory nor the time to read it to its end.
class LineReader {
 public:
  // `file` names the stream in the InputError a too-long line raises.
  LineReader(std::istream& in, std::string file, std::size_t max_bytes);

  // The next line, without its '\n', into `line`; false at the end of the stream. Throws
  // InputError "<file>: line N: line longer than <limit>" for a line over the limit.
  bool next(std::string& line);
  // 1-based number of the line `next` returned last.
  std::uint64_t line_number() const { return number_; }

 private:
  bool refill();
  [[noreturn]] void refuse_long_line() const;

  std::istream& in_;
  std::string file_;
  std::size_t max_bytes_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, end_ = 0;
  std::uint64_t number_ = 0;
};

}  // namespace npusim
