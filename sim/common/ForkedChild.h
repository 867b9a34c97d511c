#pragma once
#include <sys/types.h>

#include <functional>

namespace npusim {

// In a child just forked from `parent`, first: the child gets SIGKILL when the parent ends,
// however it ends (PR_SET_PDEATHSIG; it exits at once if the parent is already gone), and
// takes INT, TERM and HUP again. The parent leaves those to its watcher thread
// (Interruption.h) and has them blocked; the child has no watcher, so with the inherited
// mask it would be deaf to all three. A crash of the child writes no core file.
void tie_child_to_parent(pid_t parent);

// Runs `work` in a forked child tied to this process and returns its wait status
// (waitpid's): a crash inside `work` (a library that reads out of bounds) ends the child,
// not npusim. The child leaves with _exit(0) when `work` returns or throws, so nothing of
// this process's (buffers, exit handlers) runs twice; -1 when fork fails.
int status_of_forked(const std::function<void()>& work);

}  // namespace npusim
