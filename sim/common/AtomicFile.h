#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "sim/common/Interruption.h"

namespace npusim {

// A file that appears whole or not at all. Bytes go to a hidden temporary beside the
// target, created exclusively under a unique name (O_EXCL | O_NOFOLLOW: a planted
// link is never followed), and commit() renames it over the target. Until then
// the temporary is removed on every way out: an exception, SIGINT, SIGTERM or SIGHUP.
// Whether the target may be replaced is the caller's decision.
class AtomicFile {
 public:
  explicit AtomicFile(std::string target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Buffered; a failed write (full disk, file size limit) is an InputError naming the target.
  void write(std::string_view bytes);
  void commit();
  const std::string& temp_path() const { return temp_; }

 private:
  void flush();
  [[noreturn]] void fail(const std::string& what, int error);

  std::string target_;
  std::string temp_;
  std::string buffer_;
  int fd_ = -1;
  bool committed_ = false;
  std::optional<OnInterrupt> interrupt_;  // removes the temporary on SIGINT/SIGTERM/SIGHUP
};

}  // namespace npusim
