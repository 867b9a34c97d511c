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
#include "sim/report/OutputOwnership.h"

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

// A file system without flock (Lustre's default noflock, some NFS and FUSE mounts)
// cannot keep writers apart; npusim then goes on unlocked rather than refuse to run.
bool flock_unsupported(int error) { return error == ENOLCK || error == EOPNOTSUPP || error == ENOSYS; }

// flock(LOCK_EX | LOCK_NB) on `fd`: true when held (or flock is unsupported there),
// false when another process holds it. Other failures throw InputError naming `file`.
bool try_flock(int fd, const fs::path& file) {
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
  const int error = errno;
  if (error == EWOULDBLOCK) return false;
  if (flock_unsupported(error)) return true;
  errno = error;
  fail_writing(file.string(), "cannot lock it");
}

// An open, locked, still linked lock file; -1 when another process holds it, -2 when
// it cannot be created and `optional` (the place itself is locked instead).
// Other failures (a read-only parent, a name too long) throw InputError.
int lock_exclusively(const fs::path& file, bool optional) {
  for (;;) {
    int fd;
    {
      CreationGuard guard;
      fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    }
    if (fd < 0 && optional && (errno == EACCES || errno == EPERM || errno == EROFS)) return -2;
    if (fd < 0) fail_writing(file.string(), "cannot create the lock file that keeps two runs apart");
    if (!try_flock(fd, file)) {
      ::close(fd);
      return -1;
    }
    if (still_linked(fd, file)) return fd;
    ::close(fd);  // its holder released it as we opened it: take the new one
  }
}

// An existing directory is locked itself as well, so it can be written into even
// where its parent cannot hold a lock file (a mount point, a home directory).
// -1 when another process holds it, -2 when `place` is no directory.
int lock_directory(const fs::path& place) {
  const int fd = ::open(place.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -2;
  if (try_flock(fd, place)) return fd;
  ::close(fd);
  return -1;
}

}  // namespace

fs::path PlaceLock::lock_file(const fs::path& place) {
  return parent_directory(place) / ("." + place.filename().string() + ".lock");
}

PlaceLock::PlaceLock(fs::path file, int fd, int dir_fd) : file_(std::move(file)), fd_(fd), dir_fd_(dir_fd) {
  if (fd_ >= 0) interrupt_.emplace("", [file = file_] { ::unlink(file.c_str()); });
}

PlaceLock::~PlaceLock() {
  if (fd_ >= 0) {
    ::unlink(file_.c_str());  // while still locked: nobody else can hold this inode's name
    ::close(fd_);
  }
  if (dir_fd_ >= 0) ::close(dir_fd_);
}

PlaceLock::Handle PlaceLock::try_claim(const fs::path& place) {
  const fs::path file = lock_file(place);
  std::lock_guard<std::mutex> lock(held_mutex);
  if (Handle mine = held[file.string()].lock()) return mine;
  const int dir_fd = lock_directory(place);
  if (dir_fd == -1) return nullptr;
  const int fd = lock_exclusively(file, dir_fd >= 0);
  if (fd == -1) {
    if (dir_fd >= 0) ::close(dir_fd);
    return nullptr;
  }
  if (fd >= 0) write_pid(fd);
  Handle handle(new PlaceLock(file, fd, dir_fd));
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
