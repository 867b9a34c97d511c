#pragma once
#include <string>
#include <vector>

namespace npusim {

struct ChildResult {
  int status = -1;         // exit status, or 128 + signal
  std::string error_text;  // what the child wrote on stderr
  std::string output;      // its stdout (run_program only; run_self discards it)
};

// Runs this very binary (/proc/self/exe) with `args`, stdout discarded and
// stderr captured. SystemC elaborates once per process, so every simulation
// of a sweep needs a process of its own. Safe to call from several threads.
ChildResult run_self(const std::vector<std::string>& args);

// Runs `program`, looked up on PATH (sbatch, squeue ...), capturing stdout and stderr.
// Both throw std::runtime_error, saying why, when the program cannot be started.
ChildResult run_program(const std::string& program, const std::vector<std::string>& args);

}  // namespace npusim
