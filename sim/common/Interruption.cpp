#include "sim/common/Interruption.h"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <thread>

namespace npusim {

namespace {

struct Cleanup {
  std::string what;
  std::function<void()> action;
};

std::mutex registry_mutex;
std::map<std::uint64_t, Cleanup> registry;  // by registration order
std::uint64_t next_id = 0;
std::shared_mutex creations;  // shared: a creation in flight; exclusive: the watcher, until exit

// SIGINT, SIGTERM and SIGHUP (the terminal closed: clean up as for SIGTERM), except
// those npusim was started with ignored: `nohup npusim ...` must survive a logout,
// and a blocked signal is delivered to sigwait even when its action is SIG_IGN.
sigset_t interruption_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current {};
    if (sigaction(sig, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) continue;
    sigaddset(&set, sig);
  }
  return set;
}

// Runs every registered cleanup, newest first; returns "; removed A, B" for the exit line.
std::string run_cleanups() {
  std::string removed;
  for (auto it = registry.rbegin(); it != registry.rend(); ++it) {
    try {
      it->second.action();
    } catch (...) {
      // Best effort: the next run into the same place removes what is left.
    }
    if (!it->second.what.empty()) removed += (removed.empty() ? "; removed " : ", ") + it->second.what;
  }
  return removed;
}

[[noreturn]] void watch(sigset_t set) {
  int signal = 0;
  while (sigwait(&set, &signal) != 0) {
  }
  creations.lock();                                   // held until exit: nothing is created any more
  std::lock_guard<std::mutex> lock(registry_mutex);  // held until exit: nothing registers any more
  const std::string removed = run_cleanups();
  const char* name = signal == SIGINT ? "SIGINT" : signal == SIGHUP ? "SIGHUP" : "SIGTERM";
  std::fprintf(stderr, "\nnpusim: interrupted by %s%s\n", name, removed.c_str());
  std::fflush(stderr);
  _exit(128 + signal);
}

// Memory the terminate handler gives back before it cleans up: when an allocation failed
// where no handler can catch it, the cleanups still need a little to remove the staging.
void* reserve = nullptr;
constexpr std::size_t kReserveBytes = std::size_t{16} << 20;

// An exception that nothing caught, or one thrown through a noexcept function (the JSON
// library's, when an allocation fails inside it under a memory cap): std::terminate would
// abort and leave the staging directory and the lock. Out of memory is exit 2 like any
// input too big for the machine; anything else is an internal error (3). Either way the
// cleanups run first. The thread that failed may hold a lock the watcher takes; this only
// tries them.
[[noreturn]] void on_terminate() {
  std::free(reserve);
  reserve = nullptr;
  bool out_of_memory = false;
  try {
    if (const std::exception_ptr e = std::current_exception()) std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    out_of_memory = true;
  } catch (...) {
  }
  const bool creating = !creations.try_lock();
  const bool registering = !registry_mutex.try_lock();
  (void)creating, (void)registering;  // held until exit either way
  const std::string removed = run_cleanups();
  if (out_of_memory)
    std::fprintf(stderr, "error: out of memory: this input needs more memory than the machine (or ulimit -v) gives "
                         "npusim%s\n", removed.c_str());
  else
    std::fprintf(stderr, "npusim: internal error: an exception escaped (a bug: please report it)%s\n", removed.c_str());
  std::fflush(stderr);
  _exit(out_of_memory ? 2 : 3);
}

}  // namespace

void install_interruption_handling() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Past a file size limit (ulimit -f) a write then fails with EFBIG and is reported
    // like a full disk, instead of the signal killing npusim with its files half written.
    signal(SIGXFSZ, SIG_IGN);
    reserve = std::malloc(kReserveBytes);
    std::set_terminate(on_terminate);
    sigset_t set = interruption_signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(watch, set).detach();
  });
}

OnInterrupt::OnInterrupt(std::string what, std::function<void()> cleanup) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  id_ = next_id++;
  registry.emplace(id_, Cleanup{std::move(what), std::move(cleanup)});
}

CreationGuard::CreationGuard() { creations.lock_shared(); }
CreationGuard::~CreationGuard() { creations.unlock_shared(); }

OnInterrupt::~OnInterrupt() {
  std::lock_guard<std::mutex> lock(registry_mutex);
  registry.erase(id_);
}

}  // namespace npusim
