#include "sim/common/ForkedChild.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

namespace npusim {

void tie_child_to_parent(pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(3);  // the parent was gone before the tie was made
  sigset_t none;
  sigemptyset(&none);
  pthread_sigmask(SIG_SETMASK, &none, nullptr);
  const rlimit no_core{0, 0};  // a crash in the child writes no core file into the user's folder
  setrlimit(RLIMIT_CORE, &no_core);
}

int status_of_forked(const std::function<void()>& work) {
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    tie_child_to_parent(parent);
    // The crash `work` may meet is the library's, expected and reported by the parent: the
    // default action ends the child (a sanitizer's handler would report it as npusim's own).
    for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, SIG_DFL);
    try {
      work();
    } catch (...) {
    }
    _exit(0);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace npusim
