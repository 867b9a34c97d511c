#include "apps/sweep/ChildProcess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "sim/common/Interruption.h"

extern char** environ;

namespace npusim {

namespace {

// Reads both pipes to their ends without letting either fill up.
void drain(int out_fd, int err_fd, std::string* out, std::string& err) {
  std::vector<pollfd> fds;
  if (out_fd >= 0) fds.push_back({out_fd, POLLIN, 0});
  fds.push_back({err_fd, POLLIN, 0});
  char buffer[4096];
  while (!fds.empty()) {
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (std::size_t i = fds.size(); i-- > 0;) {
      if (fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds.erase(fds.begin() + std::ptrdiff_t(i));
        continue;
      }
      (fds[i].fd == err_fd ? err : *out).append(buffer, static_cast<std::size_t>(n));
    }
  }
}

// Spawns argv[0] (`binary`, or looked up on PATH), stdout to a pipe when `out` is
// given (else /dev/null), stderr to a pipe; waits for it.
ChildResult spawn(const std::string& binary, bool search_path, std::vector<std::string> argv_storage,
                  bool capture_stdout) {
  int err[2], out[2] = {-1, -1};
  // Close-on-exec, so a child started by another thread never inherits these pipes'
  // write ends (the reads below would then wait for that child too).
  if (pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  if (capture_stdout && pipe2(out, O_CLOEXEC) != 0) {
    close(err[0]);
    close(err[1]);
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (capture_stdout)
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  else
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The child starts with SIGINT, SIGTERM and SIGHUP unblocked (this process leaves
  // them to its watcher thread, and a spawned child inherits the mask) and SIGXFSZ
  // at its default (this process ignores it; an ignored signal is inherited too).
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none, file_size;
  sigemptyset(&none);
  sigemptyset(&file_size);
  sigaddset(&file_size, SIGXFSZ);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &file_size);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int spawned = search_path ? posix_spawnp(&pid, binary.c_str(), &actions, &attributes, argv.data(), environ)
                                  : posix_spawn(&pid, binary.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(err[1]);
  if (capture_stdout) close(out[1]);
  if (spawned != 0) {
    close(err[0]);
    if (capture_stdout) close(out[0]);
    throw std::runtime_error("cannot start " + argv_storage.front() + ": " + std::strerror(spawned));
  }
  // Interrupted, the sweep stops its running children and waits until they have
  // cleaned up (waitid with WNOWAIT leaves the child for the waitpid below).
  OnInterrupt stop_child("", [pid] {
    kill(pid, SIGTERM);
    siginfo_t info;
    while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
  });
  ChildResult result;
  drain(capture_stdout ? out[0] : -1, err[0], &result.output, result.error_text);
  close(err[0]);
  if (capture_stdout) close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace

ChildResult run_self(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"npusim"};
  argv.insert(argv.end(), args.begin(), args.end());
  return spawn("/proc/self/exe", false, std::move(argv), false);
}

ChildResult run_program(const std::string& program, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {program};
  argv.insert(argv.end(), args.begin(), args.end());
  return spawn(program, true, std::move(argv), true);
}

}  // namespace npusim
