#include "sim/common/LineReader.h"

#include <cstring>

#include <fmt/format.h>

#include "sim/common/ByteSize.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {
constexpr std::size_t kChunkBytes = 1 << 16;  // read at once; lines are cut out of it
}

LineReader::LineReader(std::istream& in, std::string file, std::size_t max_bytes)
    : in_(in), file_(std::move(file)), max_bytes_(max_bytes), buffer_(kChunkBytes) {}

bool LineReader::refill() {
  in_.read(buffer_.data(), std::streamsize(buffer_.size()));
  pos_ = 0;
  end_ = std::size_t(in_.gcount());
  return end_ > 0;
}

bool LineReader::next(std::string& line) {
  line.clear();
  bool started = false;  // some byte of this line was seen: a last line without '\n' counts
  for (;;) {
    if (pos_ == end_ && !refill()) {
      if (started) ++number_;
      return started;
    }
    started = true;
    const char* from = buffer_.data() + pos_;
    const auto* newline = static_cast<const char*>(std::memchr(from, '\n', end_ - pos_));
    const std::size_t take = newline ? std::size_t(newline - from) : end_ - pos_;
    if (line.size() + take > max_bytes_) {
      ++number_;
      refuse_long_line();
    }
    line.append(from, take);
    pos_ += take + (newline ? 1 : 0);
    if (newline) {
      ++number_;
      return true;
    }
  }
}

void LineReader::refuse_long_line() const {
  throw InputError(file_, fmt::format("line {}", number_),
                   fmt::format("line longer than {}: npusim reads no line longer than that", byte_size_text(max_bytes_)));
}

}  // namespace npusim
