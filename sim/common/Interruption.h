#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace npusim {

// SIGINT, SIGTERM and SIGHUP end npusim cleanly. install_interruption_handling()
// blocks them in every thread and leaves them to one watcher thread, which runs the
// cleanups registered at that moment (newest first), prints one line naming what
// it removed and exits with 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP). SIGXFSZ is
// ignored, so a file size limit is a failed write reported like a full disk. Cleaning up in a normal
// thread, not a signal handler, lets it remove whole directories safely.
// SIGKILL cannot be caught: its leftovers are removed by the next run (OutputDirectory).
void install_interruption_handling();

// While alive, `cleanup` runs if npusim is interrupted; `what` (may be empty) is
// named in the exit line, e.g. "the unfinished run directory runs/.a.partial".
class OnInterrupt {
 public:
  OnInterrupt(std::string what, std::function<void()> cleanup);
  ~OnInterrupt();
  OnInterrupt(const OnInterrupt&) = delete;
  OnInterrupt& operator=(const OnInterrupt&) = delete;

 private:
  std::uint64_t id_;
};

// Held while npusim creates a file or directory inside a place an OnInterrupt
// cleanup removes. The watcher takes it exclusively before cleaning up, so a
// creation in flight finishes first and none starts afterwards: without it a run
// interrupted under load could recreate its staging directory (tensors/) right
// after the cleanup removed it.
class CreationGuard {
 public:
  CreationGuard();
  ~CreationGuard();
  CreationGuard(const CreationGuard&) = delete;
  CreationGuard& operator=(const CreationGuard&) = delete;
};

}  // namespace npusim
