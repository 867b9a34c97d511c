#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "sim/common/Interruption.h"

namespace npusim {

// An exclusive claim on an output place (a run or sweep directory, a compiled trace)
// for as long as a handle to it lives. Two npusim processes never write one place at
// once: the second is refused and told the first one's pid.
//
// The claim is an flock(2) on a hidden sibling, <parent>/.<name>.lock, holding the
// holder's pid, and on the place itself when it is an existing directory (then the
// sibling may be missing where the parent is not writable, e.g. a mount point). On a
// file system without flock the claim holds nothing and npusim goes on. The kernel drops the lock when its holder dies, however it dies, so
// a crash never leaves a place locked; the file itself is removed on release and on
// SIGINT/SIGTERM/SIGHUP. Inside one process a place is claimed once and shared, so a
// command may claim its output early (to pick a free name) and the writer later.
class PlaceLock {
 public:
  using Handle = std::shared_ptr<const PlaceLock>;

  // The claim, or nullptr when another process holds it.
  static Handle try_claim(const std::filesystem::path& place);
  // The claim, or an InputError naming `given` (for `option`) and the holder's pid.
  static Handle claim(const std::filesystem::path& place, const std::string& given, const std::string& option);

  ~PlaceLock();
  PlaceLock(const PlaceLock&) = delete;
  PlaceLock& operator=(const PlaceLock&) = delete;

  // The pid written in the lock file of `place`, or 0 when none can be read.
  static long holder_pid(const std::filesystem::path& place);
  static std::filesystem::path lock_file(const std::filesystem::path& place);

 private:
  PlaceLock(std::filesystem::path file, int fd, int dir_fd);

  std::filesystem::path file_;
  int fd_;      // the lock file, or -1 when it could not be made beside the place
  int dir_fd_;  // the place itself when it is a directory, else -1
  std::optional<OnInterrupt> interrupt_;  // removes the lock file when interrupted
};

}  // namespace npusim
