#include "sim/common/AtomicFile.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/common/Interruption.h"

namespace npusim {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kBufferBytes = 1 << 20;

// <dir>/.<name>.<pid>-<n>.partial, opened only if nothing has that name yet. Its
// removal on SIGINT/SIGTERM/SIGHUP is registered before the file exists, so no moment
// is left uncovered; a name in use is released inside the creation guard, so an
// interruption never removes what is not ours.
int create_temp(const fs::path& target, std::string& temp, std::optional<OnInterrupt>& interrupt) {
  static std::atomic<unsigned> counter{0};
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp = (dir / fmt::format(".{}.{}-{}.partial", target.filename().string(), getpid(), counter++)).string();
    interrupt.emplace("the unfinished " + temp, [temp] { std::remove(temp.c_str()); });
    CreationGuard guard;
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    const int error = errno;
    interrupt.reset();
    errno = error;
    if (error != EEXIST) return -1;
  }
  errno = EEXIST;
  return -1;
}

}  // namespace

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
  fd_ = create_temp(target_, temp_, interrupt_);
  if (fd_ < 0) {
    const int error = errno;
    temp_.clear();
    fail("cannot create a file beside it", error);
  }
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) std::remove(temp_.c_str());
}

void AtomicFile::write(std::string_view bytes) {
  buffer_.append(bytes);
  if (buffer_.size() >= kBufferBytes) flush();
}

void AtomicFile::flush() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("writing failed", errno);
    done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void AtomicFile::commit() {
  flush();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("writing failed", errno);
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) fail("cannot put the file in place", errno);
  committed_ = true;
  interrupt_.reset();
}

void AtomicFile::fail(const std::string& what, int error) {
  throw InputError(target_, "", fmt::format("{}: {}", what, std::strerror(error)));
}

}  // namespace npusim
