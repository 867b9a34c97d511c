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

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// The child's stderr pipe and, when its stdout is captured, its stdout pipe. Close-on-exec,
// so a child started by another thread never inherits their write ends (the reads below
// would then wait for that child too). Whatever is still open closes with this object.
struct ChildPipes {
  int err[2] = {-1, -1};
  int out[2] = {-1, -1};

  explicit ChildPipes(bool capture_stdout) {
    open_pipe(err);
    if (!capture_stdout) return;
    try {
      open_pipe(out);
    } catch (...) {
      close_all();
      throw;
    }
  }
  ChildPipes(const ChildPipes&) = delete;
  ChildPipes& operator=(const ChildPipes&) = delete;
  ~ChildPipes() { close_all(); }

  bool captures_stdout() const { return out[0] >= 0; }
  void close_write_ends() {
    close_fd(err[1]);
    close_fd(out[1]);
  }
  void close_all() {
    for (int* fd : {&err[0], &err[1], &out[0], &out[1]}) close_fd(*fd);
  }

 private:
  static void open_pipe(int (&fds)[2]) {
    if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
};

// A posix_spawn setting (file actions or attributes), initialised here and destroyed with this.
template <class T, auto init, auto destroy>
class SpawnSetting {
 public:
  SpawnSetting() { init(&value_); }
  SpawnSetting(const SpawnSetting&) = delete;
  SpawnSetting& operator=(const SpawnSetting&) = delete;
  ~SpawnSetting() { destroy(&value_); }
  T* get() { return &value_; }

 private:
  T value_;
};
using SpawnFileActions =
    SpawnSetting<posix_spawn_file_actions_t, posix_spawn_file_actions_init, posix_spawn_file_actions_destroy>;
using SpawnAttributes = SpawnSetting<posix_spawnattr_t, posix_spawnattr_init, posix_spawnattr_destroy>;

// The child's stdout and stderr go to the pipes' write ends, or stdout to /dev/null when
// it is not captured.
void route_output(SpawnFileActions& actions, const ChildPipes& pipes) {
  if (pipes.captures_stdout())
    posix_spawn_file_actions_adddup2(actions.get(), pipes.out[1], STDOUT_FILENO);
  else
    posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(actions.get(), pipes.err[1], STDERR_FILENO);
}

// The child starts with SIGINT, SIGTERM and SIGHUP unblocked (this process leaves them to
// its watcher thread, and a spawned child inherits the mask) and SIGXFSZ at its default
// (this process ignores it; an ignored signal is inherited too).
void reset_signals(SpawnAttributes& attributes) {
  sigset_t none, file_size;
  sigemptyset(&none);
  sigemptyset(&file_size);
  sigaddset(&file_size, SIGXFSZ);
  posix_spawnattr_setsigmask(attributes.get(), &none);
  posix_spawnattr_setsigdefault(attributes.get(), &file_size);
  posix_spawnattr_setflags(attributes.get(), POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
}

// Starts argv[0] (`binary`, or looked up on PATH) on the pipes; throws when it cannot.
pid_t start_child(const std::string& binary, bool search_path, std::vector<std::string>& argv_storage,
                  const ChildPipes& pipes) {
  SpawnFileActions actions;
  route_output(actions, pipes);
  SpawnAttributes attributes;
  reset_signals(attributes);
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const auto spawn_program = search_path ? posix_spawnp : posix_spawn;
  const int spawned = spawn_program(&pid, binary.c_str(), actions.get(), attributes.get(), argv.data(), environ);
  if (spawned != 0) throw std::runtime_error("cannot start " + argv_storage.front() + ": " + std::strerror(spawned));
  return pid;
}

// Interrupted, the sweep stops its running children and waits until they have cleaned
// up (waitid with WNOWAIT leaves the child for wait_for_exit).
void stop_child(pid_t pid) {
  kill(pid, SIGTERM);
  siginfo_t info;
  while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
  }
}

// The child's exit status, or 128 + the signal that ended it.
int wait_for_exit(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Spawns argv[0] (`binary`, or looked up on PATH), stdout to a pipe when `out` is
// given (else /dev/null), stderr to a pipe; waits for it.
ChildResult spawn(const std::string& binary, bool search_path, std::vector<std::string> argv_storage,
                  bool capture_stdout) {
  ChildPipes pipes(capture_stdout);
  const pid_t pid = start_child(binary, search_path, argv_storage, pipes);
  pipes.close_write_ends();
  OnInterrupt stop_on_interrupt("", [pid] { stop_child(pid); });
  ChildResult result;
  drain(pipes.out[0], pipes.err[0], &result.output, result.error_text);
  pipes.close_all();
  result.status = wait_for_exit(pid);
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
