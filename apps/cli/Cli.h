#pragma once

namespace CLI {
class App;
}

#include <string>

#include "apps/compiler/SplitPlanner.h"

namespace npusim {

// Exit statuses of the npusim binary.
enum ExitStatus : int {
  kExitOk = 0,
  kExitDifference = 1,   // `diff` found a change beyond tolerance
  kExitBadInput = 2,     // anything the user gave us is wrong
  kExitInternal = 3,     // a bug in npusim
};

int run_cli(int argc, char** argv);

// --split and --split-strategies of run and compile (docs/workload-format.md, splitting).
void add_split_options(CLI::App& cmd, std::string& split, std::string& strategies);
SplitOptions split_options(const std::string& split, const std::string& strategies);

// One function per subcommand file; each adds itself to the app.
void add_run_command(CLI::App& app);
void add_validate_command(CLI::App& app);
void add_explain_command(CLI::App& app);
void add_compile_command(CLI::App& app);
void add_diff_command(CLI::App& app);
void add_sweep_command(CLI::App& app);

}  // namespace npusim
