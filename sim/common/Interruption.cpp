#include "sim/common/Interruption.h"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
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

[[noreturn]] void watch(sigset_t set) {
  int signal = 0;
  while (sigwait(&set, &signal) != 0) {
  }
  creations.lock();                                   // held until exit: nothing is created any more
  std::lock_guard<std::mutex> lock(registry_mutex);  // held until exit: nothing registers any more
  std::string removed;
  for (auto it = registry.rbegin(); it != registry.rend(); ++it) {
    try {
      it->second.action();
    } catch (...) {
      // Best effort: the next run into the same place removes what is left.
    }
    if (!it->second.what.empty()) removed += (removed.empty() ? "; removed " : ", ") + it->second.what;
  }
  const char* name = signal == SIGINT ? "SIGINT" : signal == SIGHUP ? "SIGHUP" : "SIGTERM";
  std::fprintf(stderr, "\nnpusim: interrupted by %s%s\n", name, removed.c_str());
  std::fflush(stderr);
  _exit(128 + signal);
}

}  // namespace

void install_interruption_handling() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Past a file size limit (ulimit -f) a write then fails with EFBIG and is reported
    // like a full disk, instead of the signal killing npusim with its files half written.
    signal(SIGXFSZ, SIG_IGN);
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
