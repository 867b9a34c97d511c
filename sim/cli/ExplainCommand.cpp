#include <iostream>

#include <CLI/CLI.hpp>

#include "sim/cli/BundledFiles.h"
#include "sim/cli/Cli.h"
#include "sim/common/InputError.h"

namespace npusim {

// Wired to the matrix unit's mapping once models/matrix_unit lands.
void add_explain_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("explain", "Show how one conv layer maps onto the matrix unit");
  cmd->callback([] { throw InputError("", "explain", "the matrix unit mapping is not available in this build"); });
}

}  // namespace npusim
