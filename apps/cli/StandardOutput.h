#pragma once
#include <streambuf>
#include <vector>

namespace npusim {

// std::cout's bytes on their way to file descriptor 1, keeping the errno of the first
// write that failed. A std::ostream in error remembers only that it failed: an output
// larger than the C library's buffer fails while it is printed (a full disk: ENOSPC), and
// by the final check that errno is gone. Line-buffered on a terminal, as stdio is.
class StandardOutput : public std::streambuf {
 public:
  StandardOutput();            // becomes std::cout's buffer
  ~StandardOutput() override;  // flushes, then gives std::cout its own buffer back
  StandardOutput(const StandardOutput&) = delete;
  StandardOutput& operator=(const StandardOutput&) = delete;
  // Flushes: 0 when every byte went out, else the errno of the first write that failed.
  int finish();

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  void drain();
  void write_out(const char* p, std::size_t n);

  std::vector<char> buffer_;
  std::streambuf* previous_;
  bool line_buffered_;
  int error_ = 0;
};

}  // namespace npusim
