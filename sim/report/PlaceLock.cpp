#include "sim/report/PlaceLock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "sim/common/InputError.h"

namespace npusim {

namespace fs = std::filesystem;

namespace {

std::mutex held_mutex;
std::map<std::string, std::weak_ptr<const PlaceLock>> held;  // this process's claims, by lock file

// True when `fd` is still the file at `path`: a releasing holder unlinks the file
// while it holds the lock, so a lock taken on an unlinked file claims nothing.
bool still_linked(int fd, const fs::path& path) {
  struct stat by_fd {}, by_path {};
  if (::fstat(fd, &by_fd) != 0 || ::lstat(path.c_str(), &by_path) != 0) return false;
  return by_fd.st_dev == by_path.st_dev && by_fd.st_ino == by_path.st_ino;
}

void write_pid(int fd) {
  const std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, pid.data(), pid.size(), 0);
}

// An open, locked, still linked lock file; -1 when another process holds it.
// Other failures (a read-only parent, a name too long) throw InputError.
int lock_exclusively(const fs::path& file) {
  for (;;) {
    int fd;
    {
      CreationGuard guard;
      fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    }
    if (fd < 0) fail_writing(file.string(), "cannot create the lock file that keeps two runs apart");
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      ::close(fd);
      if (error == EWOULDBLOCK) return -1;
      errno = error;
      fail_writing(file.string(), "cannot lock the file");
    }
    if (still_linked(fd, file)) return fd;
    ::close(fd);  // its holder released it as we opened it: take the new one
  }
}

}  // namespace

fs::path PlaceLock::lock_file(const fs::path& place) {
  const fs::path parent = place.has_parent_path() ? place.parent_path() : fs::path(".");
  return parent / ("." + place.filename().string() + ".lock");
}

PlaceLock::PlaceLock(fs::path file, int fd) : file_(std::move(file)), fd_(fd) {
  interrupt_.emplace("", [file = file_] { ::unlink(file.c_str()); });
}

PlaceLock::~PlaceLock() {
  ::unlink(file_.c_str());  // while still locked: nobody else can hold this inode's name
  ::close(fd_);
}

PlaceLock::Handle PlaceLock::try_claim(const fs::path& place) {
  const fs::path file = lock_file(place);
  std::lock_guard<std::mutex> lock(held_mutex);
  if (Handle mine = held[file.string()].lock()) return mine;
  const int fd = lock_exclusively(file);
  if (fd < 0) return nullptr;
  write_pid(fd);
  Handle handle(new PlaceLock(file, fd));
  held[file.string()] = handle;
  return handle;
}

PlaceLock::Handle PlaceLock::claim(const fs::path& place, const std::string& given, const std::string& option) {
  if (Handle handle = try_claim(place)) return handle;
  const long pid = holder_pid(place);
  throw InputError(given, option,
                   fmt::format("another npusim{} is writing this place right now; wait for it to finish, or choose "
                               "another path",
                               pid > 0 ? fmt::format(" (pid {})", pid) : std::string()));
}

long PlaceLock::holder_pid(const fs::path& place) {
  const int fd = ::open(lock_file(place).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[32] = {};
  const ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  return n > 0 ? std::strtol(text, nullptr, 10) : 0;
}

}  // namespace npusim
