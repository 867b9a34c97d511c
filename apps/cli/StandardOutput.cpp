#include "apps/cli/StandardOutput.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

namespace npusim {

namespace {
constexpr std::size_t kBufferBytes = 1 << 16;
}

StandardOutput::StandardOutput()
    : previous_(std::cout.rdbuf(this)), line_buffered_(::isatty(STDOUT_FILENO) == 1) {
  buffer_.reserve(kBufferBytes);
}

StandardOutput::~StandardOutput() {
  drain();
  std::cout.rdbuf(previous_);
}

int StandardOutput::finish() {
  drain();
  return error_;
}

StandardOutput::int_type StandardOutput::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  xsputn(&ch, 1);
  return c;
}

std::streamsize StandardOutput::xsputn(const char* s, std::streamsize n) {
  buffer_.insert(buffer_.end(), s, s + n);
  if (buffer_.size() >= kBufferBytes || (line_buffered_ && std::memchr(s, '\n', std::size_t(n)))) drain();
  return n;  // a failed write is kept in error_ and reported once, by finish()
}

int StandardOutput::sync() {
  drain();
  return error_ ? -1 : 0;
}

void StandardOutput::drain() {
  write_out(buffer_.data(), buffer_.size());
  buffer_.clear();
}

// After a failure the rest is dropped: the run has already failed to say what it did.
void StandardOutput::write_out(const char* p, std::size_t n) {
  while (n > 0 && error_ == 0) {
    const ssize_t written = ::write(STDOUT_FILENO, p, n);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) {
      error_ = errno;
      return;
    }
    p += written;
    n -= std::size_t(written);
  }
}

}  // namespace npusim
