#pragma once
#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

// Runs the built npusim binary as a child process, the way users and CI do,
// so exit statuses, stdout/stderr and peak memory can be checked.
struct NpusimResult {
  int status = -1;          // exit status
  std::string output;       // stdout and stderr, interleaved
  long peak_rss_kib = 0;    // child's maximum resident set size
};

NpusimResult run_npusim(const std::vector<std::string>& args);

// Extra control over the child: `in_child` runs between fork and exec (limits,
// signal dispositions: async-signal-safe calls only); `while_running` runs in the
// test process once the child has started (e.g. to signal it).
struct NpusimLaunch {
  std::function<void()> in_child;
  std::function<void(pid_t)> while_running;
};
NpusimResult run_npusim(const std::vector<std::string>& args, const NpusimLaunch& launch);

// A fresh empty directory under scratch_root(), unique per test process.
std::string scratch_dir(const std::string& name);
// This test process's directory of scratch dirs; removed when every test of the
// process passed, kept (and printed) when one failed or NPUSIM_KEEP_TEST_DIRS is set.
std::string scratch_root();

std::string read_text(const std::string& path);
void write_text(const std::string& path, const std::string& text);
std::string source_path(const std::string& relative);  // inside the repository
